import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, roleListPaths, roleReadDelete, tokenFields } from '../common/index.js';
import { type AzureAuthRole, azureAuthStore } from './azure-auth-store.js';

const BOUNDS = [
  'bound_service_principal_ids',
  'bound_group_ids',
  'bound_locations',
  'bound_subscription_ids',
  'bound_resource_groups',
  'bound_scale_sets',
] as const;

const list = (description: string) => field.commaStrings({ description });

/** `role/:name` and LIST `role`: which managed identities (and machines) may log in. */
export function pathRoles(): PathDefinition[] {
  return [
    ...roleListPaths(azureAuthStore),
    definePath({
      pattern: 'role/:name',
      fields: {
        name: field.path({ description: 'Role name.', caseInsensitive: true }),
        bound_service_principal_ids: list('Object ids of the service principals (managed identities) that may log in.'),
        bound_group_ids: list('Group object ids; the token must name one in its `groups` claim.'),
        bound_locations: list('Locations the machine must be in (needs the VM lookup).'),
        bound_subscription_ids: list('Subscriptions the machine must be in.'),
        bound_resource_groups: list('Resource groups the machine must be in.'),
        bound_scale_sets: list('Scale sets the machine must belong to.'),
        ...tokenFields,
      },
      operations: {
        update: {
          summary: 'Create or update the role.',
          handler: async ({ storage, data, supplied }) => {
            const current = await azureAuthStore.role(storage, data.name);
            const role = {
              token: applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, data, supplied),
            } as AzureAuthRole;
            for (const bound of BOUNDS)
              role[bound] = supplied.has(bound)
                ? (data[bound] ?? []).filter((v) => v !== '')
                : (current?.[bound] ?? []);
            if (BOUNDS.every((b) => role[b].length === 0))
              throw new InvalidRequestError('must have at least one bound constraint when creating/updating a role');
            await azureAuthStore.putRole(storage, data.name, role);
            return undefined;
          },
        },
        ...roleReadDelete(azureAuthStore),
      },
      help: {
        synopsis: 'Manage a role of the Azure auth method.',
        description:
          'Every bound that is set must hold. Location, subscription, resource group and scale set are checked ' +
          'against the machine Resource Manager describes (the login names it).',
      },
    }),
  ];
}
