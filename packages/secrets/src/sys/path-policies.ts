import type { PolicyStore } from '../core/policy/policy-store.js';
import { decodeIfBase64, definePath, field, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../logical/errors.js';
import type { LogicalResponse } from '../logical/response.js';

const nameField = field.path({ description: 'Name of the policy (stored lower case).', caseInsensitive: true });
const policyField = field.string({ description: 'The policy document, HCL or JSON; may be base64-encoded.' });

/**
 * `sys/policy[/…]` (legacy, answers copied to the top level) and `sys/policies/acl[/…]`:
 * list, read, write and delete named ACL policies.
 */
export function pathPolicies(store: PolicyStore): PathDefinition[] {
  return [
    pathLegacyList(store),
    pathList(store, 'policy/'),
    pathLegacyPolicy(store),
    pathList(store, 'policies/acl/'),
    pathAclPolicy(store),
  ];
}

/** Stored names then `root`, which the established servers append (unsorted) in the root namespace. */
async function listNames(store: PolicyStore): Promise<string[]> {
  return [...(await store.list()), 'root'];
}

function pathLegacyList(store: PolicyStore): PathDefinition {
  return definePath({
    pattern: 'policy',
    fields: {},
    operations: {
      read: {
        summary: 'List the ACL policies.',
        handler: async () => {
          const names = await listNames(store);
          return { data: { keys: names, policies: names }, dataAtTopLevel: true };
        },
      },
    },
    help: { synopsis: 'List the configured ACL policies.', description: '`keys` and `policies` hold the same names.' },
  });
}

function pathList(store: PolicyStore, pattern: string): PathDefinition {
  return definePath({
    pattern,
    fields: {},
    operations: {
      list: {
        summary: 'List the ACL policies.',
        handler: async () => ({ data: { keys: await listNames(store) } }),
      },
    },
    help: { synopsis: 'List the configured ACL policies.', description: 'Includes the built-in `root` policy.' },
  });
}

function pathLegacyPolicy(store: PolicyStore): PathDefinition {
  return definePath({
    pattern: 'policy/*name',
    fields: {
      name: nameField,
      policy: policyField,
      rules: field.string({ description: 'Deprecated name of `policy`.' }),
    },
    operations: {
      read: {
        summary: 'Read an ACL policy.',
        handler: async ({ data }) => {
          const stored = await store.read(data.name);
          if (!stored) throw new NotFoundError('');
          return { data: { name: stored.name, rules: stored.text }, dataAtTopLevel: true };
        },
      },
      update: {
        summary: 'Create or replace an ACL policy.',
        handler: async ({ data }) => writePolicy(store, data.name, data.policy || data.rules),
      },
      delete: {
        summary: 'Delete an ACL policy.',
        handler: async ({ data }) => {
          await store.delete(data.name);
          return undefined;
        },
      },
    },
    existenceCheck: async ({ data }) => (await store.read(data.name)) !== undefined,
    help: policyHelp,
  });
}

function pathAclPolicy(store: PolicyStore): PathDefinition {
  return definePath({
    pattern: 'policies/acl/*name',
    fields: { name: nameField, policy: policyField },
    operations: {
      read: {
        summary: 'Read an ACL policy.',
        handler: async ({ data }) => {
          const stored = await store.read(data.name);
          if (!stored) throw new NotFoundError('');
          return { data: { name: stored.name, policy: stored.text } };
        },
      },
      update: {
        summary: 'Create or replace an ACL policy.',
        handler: async ({ data }) => writePolicy(store, data.name, data.policy),
      },
      delete: {
        summary: 'Delete an ACL policy.',
        handler: async ({ data }) => {
          await store.delete(data.name);
          return undefined;
        },
      },
    },
    existenceCheck: async ({ data }) => (await store.read(data.name)) !== undefined,
    help: policyHelp,
  });
}

const policyHelp = {
  synopsis: 'Read, write or delete an ACL policy.',
  description:
    'Policies grant capabilities on paths. `root` cannot be changed; `default` can be changed but not deleted.',
};

async function writePolicy(
  store: PolicyStore,
  name: string,
  text: string | undefined,
): Promise<LogicalResponse | undefined> {
  if (!text) throw new InvalidRequestError("'policy' parameter not supplied or empty");
  const { warnings } = await store.write(name, decodeIfBase64(text));
  return warnings.length > 0 ? { warnings } : undefined;
}
