import type { Clock } from '@ward/base';
import { type GoogleApis, googleCall, googleFind } from '../../google/apis.js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';
import type { LoginGrant } from '../../logical/response.js';
import { tokenGrant } from '../common/index.js';
import { authorizeInstance } from './gce-authorize.js';
import type { GceRole, GcpConfig } from './gcp-store.js';
import { verifyGoogleSignedJwt } from './google-certs.js';

/** How far ahead a login JWT may expire (instance identity tokens live an hour), with a minute's slack. */
const MAX_EXP_AHEAD_S = 3600 + 60;

/** The `google.compute_engine` claims of a `format=full` instance identity token. */
interface ComputeEngineClaims {
  project_id: string;
  project_number: number;
  zone: string;
  instance_id: string;
  instance_name: string;
  instance_creation_timestamp: number;
}

function computeEngineClaims(payload: Record<string, unknown>): ComputeEngineClaims {
  const google = payload.google as { compute_engine?: Record<string, unknown> } | undefined;
  const ce = google?.compute_engine;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? Number.NaN));
  const claims = ce && {
    project_id: str(ce.project_id),
    project_number: num(ce.project_number),
    zone: str(ce.zone),
    instance_id: str(ce.instance_id),
    instance_name: str(ce.instance_name),
    instance_creation_timestamp: num(ce.instance_creation_timestamp),
  };
  if (!claims?.project_id || !claims.zone || !claims.instance_id || !claims.instance_name)
    throw new PermissionDeniedError(
      'invalid JWT: expected google.compute_engine claims (an instance identity token with format=full)',
    );
  return claims as ComputeEngineClaims;
}

/** `vault/<role>` as the audience, or its end (`http://vault/<role>`), as the established method checks. */
function checkAudience(aud: unknown, role: string): void {
  const expected = `vault/${role}`;
  const auds = Array.isArray(aud) ? aud : [aud];
  if (!auds.some((a) => typeof a === 'string' && (a === expected || a.endsWith(`/${expected}`))))
    throw new PermissionDeniedError(`invalid JWT: at least one of the JWT claim 'aud' must end in "${expected}"`);
}

/** Group aliases for the project and its ancestors (`project-<id>`, `folder-<id>`, `organization-<id>`). */
async function groupAliases(apis: GoogleApis, projectId: string): Promise<string[]> {
  const ancestry = await googleCall('reading the project ancestry', () =>
    apis.resourceManager.projects.getAncestry({ projectId, requestBody: {} }),
  );
  return (ancestry.ancestor ?? []).map((a) => `${a.resourceId?.type}-${a.resourceId?.id}`);
}

/**
 * A `gce` login: the instance identity token is checked (signed by Google, aud, exp), the
 * instance it names is looked up in Compute Engine (it must exist with that id), authorized
 * against the role's bindings, and its service account looked up in IAM (the role's
 * `bound_service_accounts`, by email or unique id). Refusals are 403, Google failing a 502.
 */
export async function gceLogin(input: {
  jwt: string;
  roleName: string;
  role: GceRole;
  config: GcpConfig;
  apis: GoogleApis;
  clock: Clock;
}): Promise<LoginGrant> {
  const { role, apis } = input;
  if (input.jwt.split('.').length !== 3) throw new InvalidRequestError('jwt is not a signed JSON web token');
  const nowS = Math.floor(input.clock.now() / 1000);
  const payload = await verifyGoogleSignedJwt(input.jwt, input.config.api_endpoint, new Date(input.clock.now()));
  checkAudience(payload.aud, input.roleName);
  if (typeof payload.exp !== 'number') throw new PermissionDeniedError('invalid JWT: no exp');
  if (payload.exp - nowS > MAX_EXP_AHEAD_S) throw new PermissionDeniedError('invalid JWT: exp is too far ahead');
  const claims = computeEngineClaims(payload as Record<string, unknown>);
  const email = typeof payload.email === 'string' ? payload.email : (payload.sub ?? '');
  if (role.bound_projects.length > 0 && !role.bound_projects.includes(claims.project_id))
    throw new PermissionDeniedError(
      `instance "${claims.instance_id}" (project "${claims.project_id}") not in bound projects ${JSON.stringify(role.bound_projects)}`,
    );
  const instance = await googleFind('looking up the instance', () =>
    apis.compute.instances.get({ project: claims.project_id, zone: claims.zone, instance: claims.instance_name }),
  );
  if (!instance || String(instance.id) !== claims.instance_id)
    throw new PermissionDeniedError(
      `instance ${claims.instance_name} (id ${claims.instance_id}) not found in project ${claims.project_id}, zone ${claims.zone}`,
    );
  await authorizeInstance(apis, role, claims.project_id, instance);
  const account = await googleFind('looking up the service account', () =>
    apis.iam.projects.serviceAccounts.get({ name: `projects/-/serviceAccounts/${email}` }),
  );
  if (!account) throw new PermissionDeniedError(`could not find service account "${email}"`);
  const bound = role.bound_service_accounts;
  if (
    bound.length > 0 &&
    !bound.includes('*') &&
    !bound.includes(account.email ?? '') &&
    !bound.includes(account.uniqueId ?? '')
  )
    throw new PermissionDeniedError(
      `service account "${account.uniqueId}" ("${account.email}") is not in bound service accounts ${JSON.stringify(bound)}`,
    );
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
