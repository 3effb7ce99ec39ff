import type { compute_v1 } from '@googleapis/compute';
import { type GoogleApis, googleCall } from '../../google/apis.js';
import { PermissionDeniedError } from '../../logical/errors.js';
import type { GceRole } from './gcp-store.js';

const lastSegment = (url: string) => url.slice(url.lastIndexOf('/') + 1);
/** `us-central1-a` → `us-central1`. */
export const regionOfZone = (zone: string) => zone.replace(/-[a-z]$/, '');

/** Where each of `names` is, from the project's aggregated list: zonal groups by zone, regional by region. */
async function groupsByScope(apis: GoogleApis, project: string, names: Set<string>) {
  const list = await googleCall('listing instance groups', () =>
    apis.compute.instanceGroups.aggregatedList({ project }),
  );
  const zonal = new Map<string, Set<string>>();
  const regional = new Map<string, Set<string>>();
  for (const [scope, entry] of Object.entries(list.items ?? {})) {
    const [kind, where] = scope.split('/');
    for (const group of entry.instanceGroups ?? []) {
      if (!group.name || !names.has(group.name) || !where) continue;
      const table = kind === 'zones' ? zonal : regional;
      table.set(where, (table.get(where) ?? new Set()).add(group.name));
    }
  }
  return { zonal, regional };
}

async function groupHasInstance(
  apis: GoogleApis,
  project: string,
  where: { zone?: string; region?: string },
  group: string,
  selfLink: string,
): Promise<boolean> {
  const what = `listing the instances of group ${group}`;
  const answer = where.zone
    ? await googleCall(what, () =>
        apis.compute.instanceGroups.listInstances({ project, zone: where.zone, instanceGroup: group, requestBody: {} }),
      )
    : await googleCall(what, () =>
        apis.compute.regionInstanceGroups.listInstances({
          project,
          region: where.region,
          instanceGroup: group,
          requestBody: {},
        }),
      );
  return (answer.items ?? []).some((item) => item.instance === selfLink);
}

/** The zone or region of each bound group the role's zones/regions allow. */
function candidates(role: GceRole, zonal: Map<string, Set<string>>, regional: Map<string, Set<string>>, group: string) {
  const found: { zone?: string; region?: string }[] = [];
  if (role.bound_zones.length > 0) {
    for (const zone of role.bound_zones) if (zonal.get(zone)?.has(group)) found.push({ zone });
    return found;
  }
  for (const region of role.bound_regions) {
    for (const [zone, names] of zonal) if (regionOfZone(zone) === region && names.has(group)) found.push({ zone });
    if (regional.get(region)?.has(group)) found.push({ region });
  }
  return found;
}

/**
 * The established `gce` checks of an instance against a role, in order: every bound label, the
 * zone (or, without zones, the region), membership of one of the bound instance groups (looked
 * for in the bound zones or regions). A failed check is a 403 naming it.
 */
export async function authorizeInstance(
  apis: GoogleApis,
  role: GceRole,
  project: string,
  instance: compute_v1.Schema$Instance,
): Promise<void> {
  const labels = new Map(Object.entries(instance.labels ?? {}));
  for (const [key, value] of role.bound_labels)
    if (labels.get(key) !== value) throw new PermissionDeniedError(`instance missing bound label "${key}:${value}"`);
  const zone = lastSegment(instance.zone ?? '');
  if (role.bound_zones.length > 0 && !role.bound_zones.includes(zone))
    throw new PermissionDeniedError(`instance not in bound zones ${JSON.stringify(role.bound_zones)}`);
  if (
    role.bound_zones.length === 0 &&
    role.bound_regions.length > 0 &&
    !role.bound_regions.includes(regionOfZone(zone))
  )
    throw new PermissionDeniedError(`instance not in bound regions ${JSON.stringify(role.bound_regions)}`);
  if (role.bound_instance_groups.length === 0) return;
  const { zonal, regional } = await groupsByScope(apis, project, new Set(role.bound_instance_groups));
  for (const group of role.bound_instance_groups) {
    for (const where of candidates(role, zonal, regional, group))
      if (await groupHasInstance(apis, project, where, group, instance.selfLink ?? '')) return;
  }
  throw new PermissionDeniedError(
    `instance is not part of instance groups ${JSON.stringify(role.bound_instance_groups)}`,
  );
}
