import type { PasswordPolicyStore } from '../core/password-policies/index.js';
import { decodeIfBase64, definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError, NotFoundError, UnsupportedPathError } from '../logical/errors.js';

/** The part of a namespace's password policies these paths use. */
export type PasswordPolicies = Pick<PasswordPolicyStore, 'put' | 'get' | 'delete' | 'list' | 'generate'>;

const nameField = field.path({ description: 'Name of the password policy.' });

/** Policy names: word characters and `-`, no `/` (the established pattern). */
function requireName(name: string): string {
  if (!/^\w(?:[\w-]*\w)?$/.test(name)) throw new UnsupportedPathError();
  return name;
}

/**
 * `sys/policies/password[/:name[/generate]]`: named rules for generated passwords (length
 * and character sets), which engines name in their configuration (`password_policy`).
 */
export function pathPasswordPolicies(store: PasswordPolicies): PathDefinition[] {
  return [pathList(store), pathGenerate(store), pathPolicy(store)];
}

function pathList(store: PasswordPolicies): PathDefinition {
  return definePath({
    pattern: 'policies/password/',
    fields: {},
    operations: {
      list: { summary: 'List the password policies.', handler: async () => ({ data: { keys: await store.list() } }) },
    },
    help: { synopsis: 'List the password policies.', description: 'Names of the stored password policies.' },
  });
}

function pathPolicy(store: PasswordPolicies): PathDefinition {
  return definePath({
    pattern: 'policies/password/:name',
    fields: {
      name: nameField,
      policy: field.string({
        description: 'The policy, HCL or JSON (`length` and `rule "charset"` blocks); may be base64-encoded.',
      }),
    },
    operations: {
      read: {
        summary: 'Read a password policy.',
        handler: async ({ data }) => {
          const policy = await store.get(requireName(data.name));
          if (policy === undefined) throw new NotFoundError('policy does not exist');
          return { data: { policy } };
        },
      },
      update: {
        summary: 'Create or replace a password policy.',
        handler: async ({ data }) => {
          if (!data.policy) throw new InvalidRequestError('missing policy');
          await store.put(requireName(data.name), decodeIfBase64(data.policy));
          return undefined;
        },
      },
      delete: {
        summary: 'Delete a password policy (engines naming it fail to generate passwords until it is back).',
        handler: async ({ data }) => {
          await store.delete(requireName(data.name));
          return undefined;
        },
      },
    },
    existenceCheck: async ({ data }) => (await store.get(data.name)) !== undefined,
    help: {
      synopsis: 'Read, write or delete a password policy.',
      description:
        'A policy has a `length` (4 to 100) and one or more `rule "charset" { charset = "…" min-chars = N }` ' +
        'blocks. Passwords are drawn uniformly from the union of the charsets until every rule is met.',
    },
  });
}

function pathGenerate(store: PasswordPolicies): PathDefinition {
  return definePath({
    pattern: 'policies/password/:name/generate',
    fields: { name: nameField },
    operations: {
      read: {
        summary: 'Generate a password from a password policy.',
        handler: async ({ data }) => ({ data: { password: await store.generate(requireName(data.name)) } }),
      },
    },
    help: {
      synopsis: 'Generate a password from a password policy.',
      description: 'Each call draws a fresh password from the CSPRNG.',
    },
  });
}
