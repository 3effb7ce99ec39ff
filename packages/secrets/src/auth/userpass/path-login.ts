import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { tokenGrant } from '../common/index.js';
import type { UserpassDeps } from './deps.js';
import { normalizeUsername, userStore } from './user-store.js';

/** The one answer for a wrong password and an unknown user (spec: 403), so neither tells which it was. */
const badCredentials = () => new PermissionDeniedError('invalid username or password');

/** `login/:username`: a password login; answers a grant the core turns into a token. */
export function pathLogin(d: UserpassDeps) {
  return definePath({
    pattern: 'login/:username',
    fields: {
      username: field.path({ description: 'Username (case-insensitive).' }),
      password: field.string({ description: 'Password.' }),
    },
    operations: {
      update: {
        summary: 'Log in with a username and password.',
        handler: async ({ storage, data }) => {
          const name = normalizeUsername(data.username);
          if (!data.password) throw new InvalidRequestError('missing password');
          if (d.lockout.isLocked(name)) throw PermissionDeniedError.token();
          const user = await userStore.get(storage, name);
          // Unknown users are hashed against a dummy: same work, same answer.
          const isValid = await d.hasher.verify(data.password, user?.password_hash);
          if (!user || !isValid) {
            if (user) d.lockout.recordFailure(name);
            throw badCredentials();
          }
          d.lockout.recordSuccess(name);
          return {
            login: {
              aliasName: name,
              displayName: name,
              metadata: { username: name },
              ...tokenGrant(user.token),
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with a username and password.',
      description: 'Needs no token. Wrong password and unknown user get the same 403.',
    },
  });
}
