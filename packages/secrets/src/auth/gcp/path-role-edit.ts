import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { type GcpRole, gcpStore } from './gcp-store.js';
import { parseLabels } from './role-rules.js';

const wrongType = (role: GcpRole, attribute: string, expected: string) =>
  new InvalidRequestError(
    `role is type '${role.type}', cannot edit attribute '${attribute}' (expected role type: '${expected}')`,
  );

/** Items of `current` plus `add` minus `remove`, each once, in first-seen order. */
function edited(current: string[], add: string[], remove: string[]): string[] {
  const drop = new Set(remove);
  return [...new Set([...current, ...add])].filter((item) => !drop.has(item));
}

function editPath(
  pattern: string,
  what: string,
  apply: (role: GcpRole, add: string[], remove: string[]) => GcpRole,
): PathDefinition {
  return definePath({
    pattern,
    fields: {
      name: field.path({ description: 'Role name.' }),
      add: field.commaStrings({ description: `${what} to add.` }),
      remove: field.commaStrings({ description: `${what} to remove.` }),
    },
    operations: {
      update: {
        summary: `Add or remove ${what} of the role.`,
        handler: async ({ storage, data }) => {
          const add = data.add ?? [];
          const remove = data.remove ?? [];
          if (add.length === 0 && remove.length === 0)
            throw new InvalidRequestError('must provide at least one value to add or remove');
          const role = await gcpStore.role(storage, data.name);
          if (!role) throw new InvalidRequestError(`role "${data.name}" not found`);
          await gcpStore.putRole(storage, data.name, apply(role, add, remove));
          return undefined;
        },
      },
    },
    help: { synopsis: `Edit the ${what} of a role.`, description: 'Removing what is not there is not an error.' },
  });
}

/** `role/:name/service-accounts` (iam) and `role/:name/labels` (gce): edits of one list. */
export function pathRoleEdits(): PathDefinition[] {
  return [
    editPath('role/:name/service-accounts', 'service accounts', (role, add, remove) => {
      if (role.type !== 'iam') throw wrongType(role, 'service_accounts', 'iam');
      const accounts = edited(role.bound_service_accounts, add, remove);
      if (accounts.length === 0) throw new InvalidRequestError('IAM role type must have at least one service account');
      return { ...role, bound_service_accounts: accounts };
    }),
    editPath('role/:name/labels', 'labels (key:value to add, keys to remove)', (role, add, remove) => {
      if (role.type !== 'gce') throw wrongType(role, 'labels', 'gce');
      const labels = new Map(role.bound_labels);
      for (const [key, value] of parseLabels(add, 'given invalid labels to add')) labels.set(key, value);
      for (const key of remove) labels.delete(key.split(':')[0] ?? key);
      return { ...role, bound_labels: [...labels] };
    }),
  ];
}
