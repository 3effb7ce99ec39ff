import type { iam_v1 } from '@googleapis/iam';
import type { Clock } from '@ward/base';
import { type GoogleApis, googleCall, googleFind } from '../../google/apis.js';
import { PermissionDeniedError } from '../../logical/errors.js';
import type { LoginGrant } from '../../logical/response.js';
import { tokenGrant } from '../common/index.js';
import { authorizeInstance } from './gce-authorize.js';
import type { GceRole, GcpConfig } from './gcp-store.js';
import type { GoogleCerts } from './google-certs.js';
import { type ComputeEngineClaims, verifyInstanceToken } from './instance-token.js';

/** Group aliases for the project and its ancestors (`project-<id>`, `folder-<id>`, `organization-<id>`). */
export async function groupAliases(apis: GoogleApis, projectId: string): Promise<string[]> {
  const ancestry = await googleCall('reading the project ancestry', () =>
    apis.resourceManager.projects.getAncestry({ projectId, requestBody: {} }),
  );
  return (ancestry.ancestor ?? []).map((a) => `${a.resourceId?.type}-${a.resourceId?.id}`);
}

/** The instance a token or a token's metadata names. */
export type InstanceRef = Pick<ComputeEngineClaims, 'project_id' | 'zone' | 'instance_id' | 'instance_name'>;

/** The role's `bound_service_accounts` (any, or by email or unique id); empty binds none. */
export function checkBoundAccount(bound: string[], account: iam_v1.Schema$ServiceAccount): void {
  if (bound.length === 0 || bound.includes('*')) return;
  if (bound.includes(account.email ?? '') || bound.includes(account.uniqueId ?? '')) return;
  throw new PermissionDeniedError(
    `service account "${account.uniqueId}" ("${account.email}") is not in bound service accounts ${JSON.stringify(bound)}`,
  );
}

/** The account looked up in IAM (any project); one that does not exist is a 403. */
export async function lookUpAccount(apis: GoogleApis, emailOrId: string): Promise<iam_v1.Schema$ServiceAccount> {
  const account = await googleFind('looking up the service account', () =>
    apis.iam.projects.serviceAccounts.get({ name: `projects/-/serviceAccounts/${emailOrId}` }),
  );
  if (!account) throw new PermissionDeniedError(`could not find service account "${emailOrId}"`);
  return account;
}

/**
 * The `gce` checks of an instance, at login and again at renewal: in a bound project, found in
 * Compute Engine with that id, matching the role's labels, zones/regions and instance groups,
 * its service account found in IAM and bound.
 */
export async function checkGceInstance(apis: GoogleApis, role: GceRole, ref: InstanceRef, emailOrId: string) {
  if (role.bound_projects.length > 0 && !role.bound_projects.includes(ref.project_id))
    throw new PermissionDeniedError(
      `instance "${ref.instance_id}" (project "${ref.project_id}") not in bound projects ${JSON.stringify(role.bound_projects)}`,
    );
  const instance = await googleFind('looking up the instance', () =>
    apis.compute.instances.get({ project: ref.project_id, zone: ref.zone, instance: ref.instance_name }),
  );
  if (!instance || String(instance.id) !== ref.instance_id)
    throw new PermissionDeniedError(
      `instance ${ref.instance_name} (id ${ref.instance_id}) not found in project ${ref.project_id}, zone ${ref.zone}`,
    );
  await authorizeInstance(apis, role, ref.project_id, instance);
  const account = await lookUpAccount(apis, emailOrId);
  checkBoundAccount(role.bound_service_accounts, account);
  return { instance, account };
}

/**
 * A `gce` login: the instance identity token is checked (signed by Google, aud, exp), then
 * the instance as `checkGceInstance` does. Refusals are 403, Google failing a 502.
 */
export async function gceLogin(input: {
  jwt: string;
  roleName: string;
  role: GceRole;
  config: GcpConfig;
  apis: GoogleApis;
  certs: GoogleCerts;
  clock: Clock;
}): Promise<LoginGrant> {
  const { role, apis } = input;
  const { claims, emailOrId } = await verifyInstanceToken(
    input.jwt,
    input.roleName,
    input.config.api_endpoint,
    input.certs,
    input.clock,
  );
  const { instance, account } = await checkGceInstance(apis, role, claims, emailOrId);
  return {
    aliasName: claims.instance_id,
    displayName: instance.name ?? claims.instance_name,
    metadata: {
      instance_creation_timestamp: String(claims.instance_creation_timestamp),
      instance_id: claims.instance_id,
      instance_name: claims.instance_name,
      project_id: claims.project_id,
      project_number: String(claims.project_number),
      role: input.roleName,
      service_account_id: account.uniqueId ?? '',
      service_account_email: account.email ?? '',
      zone: claims.zone,
    },
    ...(role.add_group_aliases ? { groupAliases: await groupAliases(apis, claims.project_id) } : {}),
    ...tokenGrant(role.token),
  };
}
