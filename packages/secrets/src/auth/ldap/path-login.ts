import type { Clock } from '@ward/base';
import type { ConnectionPool } from '../../engines/ldap/index.js';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { type Lockout, tokenGrant } from '../common/index.js';
import { type DirectoryUser, directoryLogin } from './directory-login.js';
import { ldapAuthStore } from './ldap-auth-store.js';
import { foldName } from './path-mappings.js';

export interface LoginDeps {
  pool: ConnectionPool;
  clock: Clock;
  lockout: Lockout;
}

/** `login/:username`: a password checked by the directory; policies from the user's and groups' mappings. */
export function pathLogin(d: LoginDeps) {
  return definePath({
    pattern: 'login/:username',
    fields: {
      username: field.path({ description: 'The directory username.' }),
      password: field.string({ description: 'The password.' }),
    },
    operations: {
      update: {
        summary: 'Log in with a directory username and password.',
        handler: async ({ storage, data }) => {
          const config = await ldapAuthStore.config(storage);
          if (!config) throw new InvalidRequestError('ldap backend not configured');
          if (!data.password)
            throw new InvalidRequestError('password cannot be of zero length when passwordless binds are being denied');
          const name = foldName(config, data.username);
          const attempt = await d.lockout.acquire(name, true);
          if (!attempt) throw PermissionDeniedError.denied();
          let user: DirectoryUser | undefined;
          try {
            user = await directoryLogin(config, d.pool, d.clock, data.username, data.password);
          } finally {
            // A directory that failed is no wrong password: only a refusal counts towards the lock.
            attempt.settle(user !== undefined);
          }
          const local = await ldapAuthStore.mapping(storage, 'users', name);
          const groups = [...new Set([...user.groups, ...(local?.groups ?? [])])];
          const policies = new Set([...config.token.token_policies, ...(local?.policies ?? [])]);
          for (const group of groups)
            for (const p of (await ldapAuthStore.mapping(storage, 'groups', foldName(config, group)))?.policies ?? [])
              policies.add(p);
          const alias = config.username_as_alias ? data.username : user.entryName;
          return {
            login: {
              aliasName: foldName(config, alias),
              displayName: name,
              metadata: { username: name },
              groupAliases: user.groups,
              ...tokenGrant(config.token),
              policies: [...policies],
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with a directory username and password.',
      description:
        'Needs no token. A refused password or unknown user: 403 (and counts towards the lockout); the directory ' +
        'unreachable: 502. The LDAP groups are the external group aliases of the entity.',
    },
  });
}
