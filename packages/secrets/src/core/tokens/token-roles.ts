import { parseCidrs, sanitizePolicies } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** A role's `token_type`: fixed, or a default the create request may override. */
export type RoleTokenType = 'service' | 'batch' | 'default-service' | 'default-batch';

/** A token role, stored at `roles/<name>` under its wire names. Durations in seconds. */
export interface TokenRole {
  name: string;
  allowed_policies: string[];
  disallowed_policies: string[];
  allowed_policies_glob: string[];
  disallowed_policies_glob: string[];
  orphan: boolean;
  renewable: boolean;
  path_suffix: string;
  allowed_entity_aliases: string[];
  token_bound_cidrs: string[];
  token_explicit_max_ttl: number;
  token_period: number;
  token_no_default_policy: boolean;
  token_num_uses: number;
  token_type: RoleTokenType;
  token_ttl: number;
  token_max_ttl: number;
}

/** A role as first written: everything empty, renewable, `default-service`. */
export function defaultRole(name: string): TokenRole {
  return {
    name,
    allowed_policies: [],
    disallowed_policies: [],
    allowed_policies_glob: [],
    disallowed_policies_glob: [],
    orphan: false,
    renewable: true,
    path_suffix: '',
    allowed_entity_aliases: [],
    token_bound_cidrs: [],
    token_explicit_max_ttl: 0,
    token_period: 0,
    token_no_default_policy: false,
    token_num_uses: 0,
    token_type: 'default-service',
    token_ttl: 0,
    token_max_ttl: 0,
  };
}

const ROLE_TOKEN_TYPES: ReadonlySet<string> = new Set(['service', 'batch', 'default-service', 'default-batch']);

/** Checks and normalises a role before it is stored; throws `InvalidRequestError` with the established texts. */
export function validateRole(role: TokenRole): TokenRole {
  const tokenType = role.token_type === ('default' as string) ? 'default-service' : role.token_type;
  if (!ROLE_TOKEN_TYPES.has(tokenType)) throw new InvalidRequestError(`invalid 'token_type' value "${tokenType}"`);
  if (role.path_suffix.includes('..'))
    throw new InvalidRequestError('error registering path suffix: ".." is not allowed');
  if (role.token_num_uses < 0) throw new InvalidRequestError('token_num_uses cannot be negative');
  if (role.token_max_ttl > 0 && role.token_ttl > role.token_max_ttl) {
    throw new InvalidRequestError('"token_ttl" value must be less than "token_max_ttl" value');
  }
  if (tokenType === 'batch' || tokenType === 'default-batch') {
    const reasons: Array<[boolean, string]> = [
      [role.token_period > 0, 'generate periodic tokens'],
      [role.token_explicit_max_ttl > 0, 'generate tokens with an explicit max TTL'],
      [role.token_num_uses > 0, 'generate tokens with a number of uses'],
    ];
    for (const [isSet, what] of reasons) {
      if (isSet) throw new InvalidRequestError(`'token_type' cannot be 'batch' or 'default_batch' when set to ${what}`);
    }
  }
  return {
    ...role,
    token_type: tokenType,
    allowed_policies: sanitizePolicies(role.allowed_policies),
    disallowed_policies: sanitizePolicies(role.disallowed_policies),
    token_bound_cidrs: parseCidrs(role.token_bound_cidrs, 'token_bound_cidrs'),
  };
}

/** Role records in the token store's storage, under `roles/`. Names are case-insensitive. */
export class RoleStore {
  constructor(private readonly storage: Storage) {}

  get(name: string): Promise<TokenRole | undefined> {
    return getJson<TokenRole>(this.storage, `roles/${name.toLowerCase()}`);
  }

  async put(role: TokenRole): Promise<TokenRole> {
    const valid = validateRole({ ...role, name: role.name.toLowerCase() });
    await putJson(this.storage, `roles/${valid.name}`, valid);
    return valid;
  }

  async delete(name: string): Promise<void> {
    await this.storage.delete(`roles/${name.toLowerCase()}`);
  }

  list(): Promise<string[]> {
    return this.storage.list('roles/');
  }
}
