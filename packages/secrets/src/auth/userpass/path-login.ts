import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { tokenGrant } from '../common/index.js';
import type { UserpassDeps } from './deps.js';
import { normalizeUsername, type UserRecord, userStore } from './user-store.js';

/** The one answer for a wrong password and an unknown user (spec: 403), so neither tells which it was. */
const badCredentials = () => new PermissionDeniedError('invalid username or password');

/** `login/:username`: a password login; answers a grant the core turns into a token. */
export function pathLogin(d: UserpassDeps) {
  return definePath({
    pattern: 'login/:username',
    fields: {
      username: field.path({ description: 'Username (case-insensitive).', caseInsensitive: true }),
      password: field.string({ description: 'Password.' }),
    },
    operations: {
      update: {
        summary: 'Log in with a username and password.',
        handler: async ({ storage, data }) => {
          const name = normalizeUsername(data.username);
          if (!data.password) throw new InvalidRequestError('missing password');
          const isKnownUser = (await userStore.get(storage, name)) !== undefined;
          // Waits while the checks running for this name fill the failures it has left (issue 28).
          const attempt = await d.lockout.acquire(name, isKnownUser);
          if (!attempt) {
            // A refused name costs the same check as any other, so timing tells no lock (and no user) apart.
            await d.hasher.verify(data.password, undefined);
            throw PermissionDeniedError.denied();
          }
          let isValid = false;
          let user: UserRecord | undefined;
          try {
            // Read again: the user may have changed while this attempt waited.
            user = await userStore.get(storage, name);
            // Unknown users are hashed against a dummy: same work, same answer.
            isValid = await d.hasher.verify(data.password, user?.password_hash);
          } finally {
            attempt.settle(user !== undefined && isValid);
          }
          if (!user || !isValid) throw badCredentials();
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
      description:
        'Needs no token. Wrong password and unknown user get the same 403. After the lockout threshold of ' +
        'failures (unknown names count too), the name is refused with 403 permission denied until the lock ends.',
    },
  });
}
