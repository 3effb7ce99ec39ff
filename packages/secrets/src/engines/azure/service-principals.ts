import type { Clock, Random } from '@ward/base';
import { PrincipalNotVisibleError } from './authorization.js';
import type { AzureEngineRole, CreatedApp } from './azure-store.js';
import type { AzureClients } from './clients.js';
import { GraphNotFoundError } from './graph.js';
import { randomUuid } from './ids.js';

/** Waits between role assignment attempts while a new principal replicates: about half a minute in all. */
const REPLICATION_WAITS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];

const ignoreMissing = (err: unknown) => {
  if (!(err instanceof GraphNotFoundError)) throw err;
};

/**
 * Creates an application and its service principal with the role's role assignments and group
 * memberships. A failure part way deletes what was made before it is reported (502), so no
 * lease-less principal keeps the role's rights.
 */
export async function createServicePrincipalApp(
  c: AzureClients,
  role: AzureEngineRole,
  roleName: string,
  d: { random: Random; clock: Clock },
): Promise<CreatedApp> {
  const app = await c.graph.createApplication(`ward-${roleName}-${randomUuid(d.random)}`);
  const created: CreatedApp = {
    object_id: app.id,
    app_id: app.appId,
    sp_object_id: '',
    assignment_ids: [],
    group_ids: [],
  };
  try {
    created.sp_object_id = await c.graph.createServicePrincipal(app.appId);
    for (const r of role.azure_roles) {
      const name = randomUuid(d.random);
      const assign = () => c.authorization.assign(r.scope, name, r.role_id, created.sp_object_id);
      created.assignment_ids.push(await retryWhileReplicating(assign, d.clock));
    }
    for (const g of role.azure_groups) {
      await c.graph.addGroupMember(g.object_id, created.sp_object_id);
      created.group_ids.push(g.object_id);
    }
    return created;
  } catch (err) {
    await deleteApp(c, created).catch(() => undefined);
    throw err;
  }
}

/** `run`, asked again (with waits) while Resource Manager does not see the new principal yet. */
async function retryWhileReplicating<T>(run: () => Promise<T>, clock: Clock): Promise<T> {
  for (const waitMs of REPLICATION_WAITS_MS) {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof PrincipalNotVisibleError)) throw err;
      await new Promise<void>((resolve) => clock.setTimeout(resolve, waitMs));
    }
  }
  return run();
}

/**
 * Undoes `createServicePrincipalApp`: role assignments, group memberships, then the application
 * (its service principal goes with it). Whatever is already gone counts as deleted, so a retried
 * revocation completes.
 */
export async function deleteApp(c: AzureClients, app: CreatedApp): Promise<void> {
  for (const id of app.assignment_ids) await c.authorization.unassign(id);
  if (app.sp_object_id)
    for (const group of app.group_ids) await c.graph.removeGroupMember(group, app.sp_object_id).catch(ignoreMissing);
  await c.graph.deleteApplication(app.object_id).catch(ignoreMissing);
}

/** Removes one password of an application; one already gone (or an application gone) counts as removed. */
export async function removePassword(c: AzureClients, appObjectId: string, keyId: string): Promise<void> {
  await c.graph.removePassword(appObjectId, keyId).catch(ignoreMissing);
}
