import { type Random, randomUuid } from '@ward/base';
import { field, parseCidrs } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, tokenFields, tokenReadData } from '../common/index.js';
import type { RoleRecord } from './role-store.js';

/** The write fields of `role/:role_name`, the deprecated names included. */
export const roleFields = {
  role_name: field.path({ description: 'Name of the role (case-insensitive).', caseInsensitive: true }),
  bind_secret_id: field.bool({ description: 'Require a secret id at login (default true).' }),
  secret_id_bound_cidrs: field.commaStrings({ description: 'CIDR blocks secret ids may be used from.' }),
  bound_cidr_list: field.commaStrings({ description: 'Deprecated: use `secret_id_bound_cidrs`.' }),
  secret_id_num_uses: field.int({ description: 'Uses of each secret id; 0 = unlimited.' }),
  secret_id_ttl: field.durationSeconds({ description: 'Lifetime of secret ids; 0 = unlimited.' }),
  local_secret_ids: field.bool({ description: 'Secret ids are local to this cluster; set at creation only.' }),
  role_id: field.string({ description: 'Role id to use instead of a generated UUID.' }),
  period: field.durationSeconds({ description: 'Deprecated: use `token_period`.' }),
  ...tokenFields,
};

type RoleFieldValues = { [K in keyof typeof roleFields]?: unknown };

const nonNegative = (name: string, value: unknown): number => {
  if ((value as number) < 0) throw new InvalidRequestError(`${name} cannot be negative`);
  return value as number;
};

/**
 * `existing` (or a new role) with the supplied fields applied: a deprecated name counts only
 * when its new name is absent, `local_secret_ids` only at creation, a new role gets a random
 * role id. Throws `InvalidRequestError` with the established texts.
 */
export function applyRoleFields(
  existing: RoleRecord | undefined,
  data: RoleFieldValues,
  supplied: ReadonlySet<string>,
  random: Random,
): RoleRecord {
  if (existing && supplied.has('local_secret_ids')) {
    throw new InvalidRequestError('local_secret_ids can only be modified during role creation');
  }
  const has = (name: string) => supplied.has(name);
  const role: RoleRecord = existing
    ? { ...existing }
    : {
        role_id: '',
        bind_secret_id: true,
        secret_id_bound_cidrs: [],
        secret_id_num_uses: 0,
        secret_id_ttl: 0,
        local_secret_ids: data.local_secret_ids === true,
        token: EMPTY_TOKEN_PARAMS,
      };
  if (has('role_id') && data.role_id !== '') role.role_id = data.role_id as string;
  if (!role.role_id) role.role_id = randomUuid(random);
  if (has('bind_secret_id')) role.bind_secret_id = data.bind_secret_id as boolean;
  const cidrs = has('secret_id_bound_cidrs')
    ? 'secret_id_bound_cidrs'
    : has('bound_cidr_list')
      ? 'bound_cidr_list'
      : '';
  if (cidrs) role.secret_id_bound_cidrs = parseCidrs(data[cidrs] as string[], cidrs);
  if (has('secret_id_num_uses')) role.secret_id_num_uses = nonNegative('secret_id_num_uses', data.secret_id_num_uses);
  if (has('secret_id_ttl')) role.secret_id_ttl = nonNegative('secret_id_ttl', data.secret_id_ttl);
  // `period` is the deprecated name of `token_period`.
  const tokenSupplied = new Set(supplied);
  const tokenData: RoleFieldValues = { ...data };
  if (has('period') && !has('token_period')) {
    tokenSupplied.add('token_period');
    tokenData.token_period = data.period;
  }
  role.token = applyTokenFields(role.token, tokenData, tokenSupplied);
  if (!role.bind_secret_id && role.secret_id_bound_cidrs.length === 0 && role.token.token_bound_cidrs.length === 0) {
    throw new InvalidRequestError('at least one constraint should be enabled on the role');
  }
  return role;
}

/** The read view of a role. */
export function roleReadData(role: RoleRecord): Record<string, unknown> {
  return {
    bind_secret_id: role.bind_secret_id,
    local_secret_ids: role.local_secret_ids,
    secret_id_bound_cidrs: role.secret_id_bound_cidrs,
    secret_id_num_uses: role.secret_id_num_uses,
    secret_id_ttl: role.secret_id_ttl,
    ...tokenReadData(role.token),
    period: role.token.token_period,
  };
}
