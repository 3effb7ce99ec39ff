import { type AzureAccess, azureCredential, cloudOf } from '../../engines/azure/index.js';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import { tokenGrant } from '../common/index.js';
import { type AzureAuthRole, azureAuthStore } from './azure-auth-store.js';
import { lookUpMachine, type MachineRef, parseResourceId } from './machine-lookup.js';
import type { MsiClaims, TenantKeyCache } from './tenant-keys.js';

const hasAny = (list: string[], values: string[], fold = false) => {
  const norm = (v: string) => (fold ? v.toLowerCase() : v);
  const wanted = new Set(list.map(norm));
  return values.some((v) => wanted.has(norm(v)));
};

/** The role's bounds on the token itself: service principal and groups. */
function checkIdentity(role: AzureAuthRole, claims: MsiClaims): void {
  const sps = role.bound_service_principal_ids;
  if (sps.length > 0 && !sps.includes('*') && !sps.includes(claims.oid))
    throw new PermissionDeniedError('service principal not authorized');
  if (role.bound_group_ids.length > 0 && !hasAny(role.bound_group_ids, claims.groups))
    throw new PermissionDeniedError('groups not authorized');
}

const needsMachine = (r: AzureAuthRole) =>
  r.bound_locations.length +
    r.bound_subscription_ids.length +
    r.bound_resource_groups.length +
    r.bound_scale_sets.length >
  0;

/** `login`: a managed identity's access token, and (for the machine bounds) which machine it is on. */
export function pathLogin(access: AzureAccess, keys: TenantKeyCache) {
  return definePath({
    pattern: 'login',
    fields: {
      role: field.string({ description: 'The role to log in with.' }),
      jwt: field.string({
        description: 'An access token of the managed identity (from the instance metadata service).',
      }),
      subscription_id: field.string({ description: 'Subscription of the machine.' }),
      resource_group_name: field.string({ description: 'Resource group of the machine.' }),
      vm_name: field.string({ description: 'The virtual machine (not with vmss_name).' }),
      vmss_name: field.string({ description: 'The virtual machine scale set.' }),
      resource_id: field.string({ description: 'The machine’s full resource id, instead of the fields above.' }),
    },
    operations: {
      update: {
        summary: 'Log in with a managed identity’s token.',
        handler: async ({ storage, data }) => {
          if (!data.role) throw new InvalidRequestError('role is required');
          if (!data.jwt) throw new InvalidRequestError('jwt is required');
          const config = await azureAuthStore.config(storage);
          if (!config?.tenant_id || !config.resource) throw new InvalidRequestError('the method is not configured');
          const role = await azureAuthStore.role(storage, data.role.toLowerCase());
          if (!role) throw new InvalidRequestError(`invalid role name "${data.role}"`);
          const cloud = cloudOf(access, config.environment);
          const claims = await keys.verify(cloud, config.tenant_id, config.resource, data.jwt);
          checkIdentity(role, claims);
          const ref: MachineRef = data.resource_id
            ? parseResourceId(data.resource_id)
            : {
                subscriptionId: data.subscription_id ?? '',
                resourceGroup: data.resource_group_name ?? '',
                vmName: data.vm_name ?? '',
                vmssName: data.vmss_name ?? '',
              };
          const namesMachine = ref.vmName !== '' || ref.vmssName !== '';
          if (needsMachine(role) || namesMachine) {
            if (!ref.subscriptionId || !ref.resourceGroup || !namesMachine)
              throw new InvalidRequestError(
                'subscription_id, resource_group_name and vm_name or vmss_name (or resource_id) are required by this role',
              );
            const machine = await lookUpMachine(access, cloud, azureCredential(access, cloud, config), ref);
            if (!machine.principalIds.includes(claims.oid))
              throw new PermissionDeniedError('token object id does not match the identities of the machine');
            if (role.bound_subscription_ids.length > 0 && !role.bound_subscription_ids.includes(ref.subscriptionId))
              throw new PermissionDeniedError('subscription not authorized');
            if (role.bound_resource_groups.length > 0 && !hasAny(role.bound_resource_groups, [ref.resourceGroup], true))
              throw new PermissionDeniedError('resource group not authorized');
            if (role.bound_locations.length > 0 && !hasAny(role.bound_locations, [machine.location], true))
              throw new PermissionDeniedError('location not authorized');
            if (role.bound_scale_sets.length > 0 && !hasAny(role.bound_scale_sets, [ref.vmssName], true))
              throw new PermissionDeniedError('scale set not authorized');
          }
          const metadata: Record<string, string> = { role: data.role.toLowerCase() };
          if (ref.subscriptionId) metadata.subscription_id = ref.subscriptionId;
          if (ref.resourceGroup) metadata.resource_group_name = ref.resourceGroup;
          if (ref.vmName) metadata.vm_name = ref.vmName;
          if (ref.vmssName) metadata.vmss_name = ref.vmssName;
          if (data.resource_id) metadata.resource_id = data.resource_id;
          return {
            login: {
              aliasName: claims.oid,
              displayName: claims.oid,
              metadata,
              groupAliases: claims.groups,
              ...tokenGrant(role.token),
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with an Azure managed identity.',
      description:
        'Needs no Ward token. The token’s signature, issuer, audience and lifetime are checked against the ' +
        'tenant’s published keys (403 when one fails); with machine bounds (or a machine named), Resource Manager ' +
        'is asked for the VM or scale set, whose identities must include the token’s object id.',
    },
  });
}
