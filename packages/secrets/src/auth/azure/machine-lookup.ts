import { ComputeManagementClient } from '@azure/arm-compute';
import type { TokenCredential } from '@azure/identity';
import { type AzureAccess, type AzureCloud, pipelineOptions } from '../../engines/azure/index.js';
import { InvalidRequestError, PermissionDeniedError, UpstreamError } from '../../logical/errors.js';

/** The machine a login names, as Resource Manager describes it. */
export interface Machine {
  location: string;
  /** Object ids of the identities assigned to it (system- and user-assigned). */
  principalIds: string[];
}

export interface MachineRef {
  subscriptionId: string;
  resourceGroup: string;
  vmName: string;
  vmssName: string;
}

const RESOURCE_ID =
  /^\/subscriptions\/([^/]+)\/resourceGroups\/([^/]+)\/providers\/Microsoft\.Compute\/(virtualMachines|virtualMachineScaleSets)\/([^/]+)$/i;

/** A `resource_id` naming a VM or scale set, as the other login fields would. */
export function parseResourceId(resourceId: string): MachineRef {
  const m = RESOURCE_ID.exec(resourceId);
  if (!m) throw new InvalidRequestError('resource_id must name a virtual machine or a virtual machine scale set');
  const [, subscriptionId = '', resourceGroup = '', kind = '', name = ''] = m;
  const isScaleSet = kind.toLowerCase() === 'virtualmachinescalesets';
  return { subscriptionId, resourceGroup, vmName: isScaleSet ? '' : name, vmssName: isScaleSet ? name : '' };
}

/** Reads the VM (or scale set) through `@azure/arm-compute`: missing is a 403 (the login's claim is false), a failure a 502. */
export async function lookUpMachine(
  access: AzureAccess,
  cloud: AzureCloud,
  credential: TokenCredential,
  ref: MachineRef,
): Promise<Machine> {
  const client = new ComputeManagementClient(credential, ref.subscriptionId, {
    endpoint: cloud.resourceManagerEndpoint.replace(/\/+$/, ''),
    credentials: { scopes: [`${cloud.resourceManagerEndpoint}.default`] },
    retryOptions: { maxRetries: 1 },
    ...pipelineOptions(access),
  });
  try {
    const resource = ref.vmssName
      ? await client.virtualMachineScaleSets.get(ref.resourceGroup, ref.vmssName)
      : await client.virtualMachines.get(ref.resourceGroup, ref.vmName);
    const identity = resource.identity;
    const principalIds = [
      ...(identity?.principalId ? [identity.principalId] : []),
      ...Object.values(identity?.userAssignedIdentities ?? {}).flatMap((u) => (u.principalId ? [u.principalId] : [])),
    ];
    return { location: resource.location, principalIds };
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    if (status === 404) throw new PermissionDeniedError(`${ref.vmssName ? 'scale set' : 'virtual machine'} not found`);
    throw new UpstreamError(`Resource Manager: ${(err as Error).message}`, { cause: err });
  }
}
