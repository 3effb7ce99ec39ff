import { randomUUID } from 'node:crypto';
import { type FakeAzureState, quoted, type Reply } from './azure-cloud-state.js';

// Resource Manager of the fake Azure: role definitions and assignments, virtual machines and scale sets.

export function armRoute(
  state: FakeAzureState,
  method: string,
  path: string,
  url: URL,
  body: Record<string, unknown>,
  reply: Reply,
) {
  const armError = (status: number, code: string, message: string) => reply(status, { error: { code, message } });
  if (!url.searchParams.get('api-version'))
    return armError(400, 'MissingApiVersionParameter', 'api-version is required');
  const defs = /^(\/.*)\/providers\/Microsoft\.Authorization\/roleDefinitions$/.exec(path);
  const defJson = (d: { id: string; roleName: string }) => ({
    id: d.id,
    name: d.id.split('/').pop(),
    type: 'Microsoft.Authorization/roleDefinitions',
    properties: { roleName: d.roleName, type: 'BuiltInRole', permissions: [] },
  });
  if (method === 'GET' && defs) {
    const name = quoted(url.searchParams.get('$filter'), 'roleName');
    const subscription = /^\/subscriptions\/([^/]+)/.exec(defs[1] ?? '')?.[1];
    const found = [...state.roleDefinitions.values()].filter(
      (d) => d.roleName === name && d.subscriptionId === subscription,
    );
    return reply(200, { value: found.map(defJson) });
  }
  if (method === 'GET' && state.roleDefinitions.has(path))
    return reply(200, defJson(state.roleDefinitions.get(path) as { id: string; roleName: string }));
  const assignment = /^(\/.*)\/providers\/Microsoft\.Authorization\/roleAssignments\/([^/]+)$/.exec(path);
  if (assignment && method === 'PUT') {
    const props = (body.properties ?? {}) as { roleDefinitionId?: string; principalId?: string };
    if (!state.roleDefinitions.has(String(props.roleDefinitionId)))
      return armError(400, 'RoleDefinitionDoesNotExist', 'The specified role definition does not exist.');
    if (state.replicationLag > 0 || !state.servicePrincipals.has(String(props.principalId))) {
      state.replicationLag = Math.max(0, state.replicationLag - 1);
      return armError(400, 'PrincipalNotFound', `Principal ${props.principalId} does not exist in the directory.`);
    }
    const record = {
      principalId: String(props.principalId),
      roleDefinitionId: String(props.roleDefinitionId),
      scope: assignment[1] ?? '',
    };
    state.roleAssignments.set(path, record);
    return reply(201, {
      id: path,
      name: assignment[2],
      type: 'Microsoft.Authorization/roleAssignments',
      properties: record,
    });
  }
  if (assignment && method === 'DELETE') {
    const record = state.roleAssignments.get(path);
    if (!record) return reply(204);
    state.roleAssignments.delete(path);
    return reply(200, {
      id: path,
      name: assignment[2],
      type: 'Microsoft.Authorization/roleAssignments',
      properties: record,
    });
  }
  const machine = state.machines.get(path.toLowerCase());
  if (method === 'GET' && /\/providers\/Microsoft\.Compute\/(virtualMachines|virtualMachineScaleSets)\//i.test(path)) {
    if (!machine) return armError(404, 'ResourceNotFound', `The Resource '${path}' was not found.`);
    const [first, ...rest] = machine.principalIds;
    return reply(200, {
      id: path,
      name: machine.name,
      location: machine.location,
      identity: {
        type: rest.length ? 'SystemAssigned, UserAssigned' : 'SystemAssigned',
        principalId: first,
        tenantId: 'tenant',
        userAssignedIdentities: Object.fromEntries(
          rest.map((p, i) => [
            `/subscriptions/s/resourceGroups/rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/u${i}`,
            { principalId: p, clientId: randomUUID() },
          ]),
        ),
      },
      properties: {},
    });
  }
  return armError(404, 'NotFound', `Unsupported request: ${method} ${path}`);
}
