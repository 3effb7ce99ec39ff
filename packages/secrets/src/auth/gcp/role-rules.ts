import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, type TokenParams } from '../common/index.js';
import type { GceRole, GcpRole, IamRole } from './gcp-store.js';

/** The established default of `max_jwt_exp`: a login JWT may expire at most 15 minutes ahead. */
const DEFAULT_MAX_JWT_EXP = 900;
/** And its ceiling: one hour. */
const MAX_MAX_JWT_EXP = 3600;

/** The fields a role write may carry, parsed. */
export interface RoleInput {
  type?: string;
  bound_service_accounts?: string[];
  bound_projects?: string[];
  project_id?: string;
  add_group_aliases?: boolean;
  max_jwt_exp?: number;
  allow_gce_inference?: boolean;
  bound_zones?: string[];
  bound_zone?: string;
  bound_regions?: string[];
  bound_region?: string;
  bound_instance_groups?: string[];
  bound_instance_group?: string;
  bound_labels?: string[];
}

const IAM_ONLY = ['max_jwt_exp', 'allow_gce_inference'] as const;
const GCE_ONLY = [
  'bound_zones',
  'bound_zone',
  'bound_regions',
  'bound_region',
  'bound_instance_groups',
  'bound_instance_group',
  'bound_labels',
] as const;

/** `key:value` labels; the ones that are not, listed in the error. */
export function parseLabels(items: string[], what: string): [string, string][] {
  const labels: [string, string][] = [];
  const invalid: string[] = [];
  for (const item of items) {
    const at = item.indexOf(':');
    const key = item.slice(0, at).trim();
    const value = item.slice(at + 1).trim();
    if (at <= 0 || key === '' || value.includes(':')) invalid.push(item);
    else labels.push([key, value]);
  }
  if (invalid.length > 0) throw new InvalidRequestError(`${what}: ${JSON.stringify(invalid)} (expected key:value)`);
  return labels;
}

/** A list field and its deprecated single-value name: both given is an error. */
function listOrSingle(list: string[] | undefined, single: string | undefined, name: string): string[] | undefined {
  if (list !== undefined && single !== undefined && single !== '')
    throw new InvalidRequestError(`cannot specify both "${name}" and "${name}s"`);
  if (single !== undefined) return single === '' ? [] : [single];
  return list;
}

function checkServiceAccounts(accounts: string[], type: string): void {
  if (type === 'iam' && accounts.length === 0)
    throw new InvalidRequestError('IAM role type must have at least one service account');
  if (accounts.includes('*') && accounts.length > 1)
    throw new InvalidRequestError(
      "cannot provide IAM service account wildcard '*' (for all service accounts) with other service accounts",
    );
}

/**
 * The role a write makes of `current` (absent: a new role), under the established rules: the
 * type is required and never changes, `project_id` is the old name of `bound_projects`, an
 * `iam` role needs service accounts, a `gce` role's instance groups need zones or regions,
 * and a field of the other type is refused.
 */
export function roleFromInput(
  current: GcpRole | undefined,
  input: RoleInput,
  tokenData: Record<string, unknown>,
  supplied: ReadonlySet<string>,
): GcpRole {
  const type = input.type || current?.type;
  if (!type) throw new InvalidRequestError('role type cannot be empty');
  if (current && type !== current.type)
    throw new InvalidRequestError('role type cannot be changed for an existing role');
  if (type !== 'iam' && type !== 'gce') throw new InvalidRequestError(`role type '${type}' is invalid`);
  const foreign = (type === 'iam' ? GCE_ONLY : IAM_ONLY).filter((name) => supplied.has(name));
  if (foreign.length > 0)
    throw new InvalidRequestError(`invalid args found for role of type ${type}: ${foreign.join(',')}`);
  if (input.project_id && input.bound_projects !== undefined)
    throw new InvalidRequestError("only one of 'bound_projects' or 'project_id' can be given");
  const token: TokenParams = applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, tokenData, supplied);
  const base = {
    bound_service_accounts: input.bound_service_accounts ?? current?.bound_service_accounts ?? [],
    bound_projects: (input.project_id ? [input.project_id] : input.bound_projects) ?? current?.bound_projects ?? [],
    add_group_aliases: input.add_group_aliases ?? current?.add_group_aliases ?? false,
    token,
  };
  checkServiceAccounts(base.bound_service_accounts, type);
  if (type === 'iam') {
    const was = current?.type === 'iam' ? current : undefined;
    const role: IamRole = {
      type,
      ...base,
      max_jwt_exp: input.max_jwt_exp ?? was?.max_jwt_exp ?? DEFAULT_MAX_JWT_EXP,
      allow_gce_inference: input.allow_gce_inference ?? was?.allow_gce_inference ?? true,
    };
    if (role.max_jwt_exp <= 0) throw new InvalidRequestError('max_jwt_exp must be positive');
    if (role.max_jwt_exp > MAX_MAX_JWT_EXP) throw new InvalidRequestError('max_jwt_exp cannot be more than 60 minutes');
    return role;
  }
  const was = current?.type === 'gce' ? current : undefined;
  const role: GceRole = {
    type,
    ...base,
    bound_zones: listOrSingle(input.bound_zones, input.bound_zone, 'bound_zone') ?? was?.bound_zones ?? [],
    bound_regions: listOrSingle(input.bound_regions, input.bound_region, 'bound_region') ?? was?.bound_regions ?? [],
    bound_instance_groups:
      listOrSingle(input.bound_instance_groups, input.bound_instance_group, 'bound_instance_group') ??
      was?.bound_instance_groups ??
      [],
    bound_labels: input.bound_labels
      ? parseLabels(input.bound_labels, 'invalid labels given')
      : (was?.bound_labels ?? []),
  };
  if (role.bound_instance_groups.length > 0 && role.bound_zones.length === 0 && role.bound_regions.length === 0)
    throw new InvalidRequestError('region or zone information must be specified if an instance group is given');
  return role;
}

/** A role as read: its bindings and the token fields (what applies to its type only). */
export function roleReadData(role: GcpRole): Record<string, unknown> {
  const common = {
    type: role.type,
    bound_service_accounts: role.bound_service_accounts,
    bound_projects: role.bound_projects,
    add_group_aliases: role.add_group_aliases,
  };
  if (role.type === 'iam')
    return { ...common, max_jwt_exp: role.max_jwt_exp, allow_gce_inference: role.allow_gce_inference };
  return {
    ...common,
    bound_zones: role.bound_zones,
    bound_regions: role.bound_regions,
    bound_instance_groups: role.bound_instance_groups,
    bound_labels: Object.fromEntries(role.bound_labels),
  };
}
