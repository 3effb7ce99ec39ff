import { definePath, field, sanitizePolicies } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, tokenFields, tokenReadData } from '../common/index.js';
import type { UserpassDeps } from './deps.js';
import { normalizeUsername, type UserRecord, userStore } from './user-store.js';

const username = field.path({
  description: 'Username (case-insensitive; letters, digits, `_`, `-`, `.`).',
  caseInsensitive: true,
});
const password = field.string({ description: 'Password (write-only).', sensitive: true });

async function requireUser(storage: Storage, name: string): Promise<UserRecord> {
  const user = await userStore.get(storage, name);
  if (!user) throw new InvalidRequestError('username does not exist');
  return user;
}

/** `users/` (LIST): the usernames. */
export function pathUsersList() {
  return definePath({
    pattern: 'users/',
    fields: {},
    operations: {
      list: {
        summary: 'List the users.',
        handler: async ({ storage }) => {
          const keys = await userStore.list(storage);
          return { data: { keys } };
        },
      },
    },
    help: { synopsis: 'List users.', description: 'Lower-cased usernames; 404 when there are none.' },
  });
}

/** `users/:username`: create or update (ACL tells them apart), read, delete. */
export function pathUsers(d: UserpassDeps) {
  return definePath({
    pattern: 'users/:username',
    fields: { username, password, ...tokenFields },
    existenceCheck: async ({ storage, data }) =>
      (await userStore.get(storage, normalizeUsername(data.username))) !== undefined,
    operations: {
      read: {
        summary: 'Read a user’s token settings (never the password).',
        handler: async ({ storage, data }) => {
          const user = await userStore.get(storage, normalizeUsername(data.username));
          if (!user) throw new NotFoundError('');
          return { data: tokenReadData(user.token) };
        },
      },
      update: {
        summary: 'Create a user (a password is required) or change one.',
        handler: async ({ storage, data, supplied }) => {
          const name = normalizeUsername(data.username);
          const existing = await userStore.get(storage, name);
          if (!existing && !data.password) throw new InvalidRequestError('missing password');
          const token = applyTokenFields(existing?.token ?? EMPTY_TOKEN_PARAMS, data, supplied);
          const hash = data.password ? await d.hasher.hash(data.password) : (existing?.password_hash ?? '');
          await userStore.put(storage, name, { password_hash: hash, token });
          return undefined;
        },
      },
      delete: {
        summary: 'Delete a user; its tokens and identity entity stay.',
        handler: async ({ storage, data }) => {
          await userStore.delete(storage, normalizeUsername(data.username));
          return undefined;
        },
      },
    },
    help: {
      synopsis: 'Manage users of the userpass method.',
      description: 'Passwords are stored as bcrypt hashes; token settings apply to the tokens logins issue.',
    },
  });
}

/** `users/:username/password`: set a new password. */
export function pathUserPassword(d: UserpassDeps) {
  return definePath({
    pattern: 'users/:username/password',
    fields: { username, password },
    operations: {
      update: {
        summary: 'Change a user’s password.',
        handler: async ({ storage, data }) => {
          const name = normalizeUsername(data.username);
          const user = await requireUser(storage, name);
          if (!data.password) throw new InvalidRequestError('missing password');
          await userStore.put(storage, name, { ...user, password_hash: await d.hasher.hash(data.password) });
          return undefined;
        },
      },
    },
    help: { synopsis: 'Reset a user’s password.', description: 'The new password is hashed with bcrypt.' },
  });
}

/** `users/:username/policies`: replace a user's token policies. */
export function pathUserPolicies() {
  return definePath({
    pattern: 'users/:username/policies',
    fields: {
      username,
      token_policies: tokenFields.token_policies,
      policies: tokenFields.policies,
    },
    operations: {
      update: {
        summary: 'Replace a user’s token policies.',
        handler: async ({ storage, data, supplied }) => {
          const name = normalizeUsername(data.username);
          const user = await requireUser(storage, name);
          const hasNew = supplied.has('token_policies');
          const value = sanitizePolicies((hasNew ? data.token_policies : data.policies) ?? []);
          const legacy = supplied.has('policies') ? value : [];
          const token = { ...user.token, token_policies: value, legacy: { ...user.token.legacy, policies: legacy } };
          await userStore.put(storage, name, { ...user, token });
          return undefined;
        },
      },
    },
    help: { synopsis: 'Update a user’s policies.', description: 'A comma-separated string or an array.' },
  });
}
