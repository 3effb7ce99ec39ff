import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, roleListPaths, roleReadDelete, tokenFields } from '../common/index.js';
import { DEFAULT_CLOCK_SKEW_LEEWAY, DEFAULT_EXPIRATION_LEEWAY, DEFAULT_NOT_BEFORE_LEEWAY } from './claims.js';
import { type JwtRole, jwtStore } from './jwt-store.js';

const fields = {
  name: field.path({ description: 'Role name (case-insensitive).', caseInsensitive: true }),
  role_type: field.string({ description: '`oidc` (default) or `jwt`.' }),
  bound_audiences: field.commaStrings({ description: 'One of these must be in the token’s `aud`.' }),
  bound_subject: field.string({ description: 'The `sub` the token must carry.' }),
  bound_claims: field.object({ description: 'Claim (name or JSON pointer) → value or list of values it must match.' }),
  bound_claims_type: field.string({ description: '`string` (default: exact) or `glob` (`*` wildcards).' }),
  claim_mappings: field.stringMap({ description: 'Claim → token metadata key.' }),
  user_claim: field.string({ description: 'Claim whose value is the alias name (required).' }),
  user_claim_json_pointer: field.bool({ description: 'Read user_claim as a JSON pointer.' }),
  groups_claim: field.string({ description: 'Claim listing the groups (external group aliases).' }),
  oidc_scopes: field.commaStrings({ description: 'Scopes asked besides `openid`.' }),
  allowed_redirect_uris: field.commaStrings({ description: 'Redirect URIs the OIDC flow may use.' }),
  verbose_oidc_logging: field.bool({
    description: 'Log the claims of OIDC logins (for debugging; logs personal data).',
  }),
  max_age: field.durationSeconds({ description: 'Most time since the user last authenticated at the provider.' }),
  clock_skew_leeway: field.durationSeconds({ description: 'Leeway for exp, nbf and iat (default 60; -1 = none).' }),
  expiration_leeway: field.durationSeconds({ description: 'Extra leeway for exp (default 150; -1 = none).' }),
  not_before_leeway: field.durationSeconds({ description: 'Extra leeway for nbf (default 150; -1 = none).' }),
  ...tokenFields,
};

type RoleData = { [K in keyof typeof fields]?: unknown } & Record<string, unknown>;

/** `role/:name` and LIST `role/`. */
export function pathRoles(): PathDefinition[] {
  return [
    ...roleListPaths(jwtStore),
    definePath({
      pattern: 'role/:name',
      fields,
      existenceCheck: async ({ storage, data }) => (await jwtStore.role(storage, data.name)) !== undefined,
      operations: {
        create: { summary: 'Create the role.', handler: (ctx) => write(ctx) },
        update: { summary: 'Update the role.', handler: (ctx) => write(ctx) },
        ...roleReadDelete(jwtStore),
      },
      help: {
        synopsis: 'Manage a JWT or OIDC role.',
        description:
          'A `jwt` role logs in with a JWT at `login`; an `oidc` role through the browser flow (`oidc/auth_url`, ' +
          '`oidc/callback`). The user_claim names the alias, groups_claim the external groups.',
      },
    }),
  ];
}

async function write({
  storage,
  data,
  supplied,
}: {
  storage: import('../../logical/storage.js').Storage;
  data: RoleData & { name: string };
  supplied: ReadonlySet<string>;
}) {
  const current = await jwtStore.role(storage, data.name);
  const pick = <T>(key: string, fallback: T): T => (supplied.has(key) ? ((data[key] as T) ?? fallback) : fallback);
  const roleType = pick<string>('role_type', current?.role_type ?? 'oidc') || 'oidc';
  if (roleType !== 'jwt' && roleType !== 'oidc') throw new InvalidRequestError(`invalid 'role_type': ${roleType}`);
  const role: JwtRole = {
    role_type: roleType,
    bound_audiences: pick('bound_audiences', current?.bound_audiences ?? []),
    bound_subject: pick('bound_subject', current?.bound_subject ?? ''),
    bound_claims: supplied.has('bound_claims')
      ? boundClaimsOf(data.bound_claims as Record<string, unknown> | undefined)
      : (current?.bound_claims ?? {}),
    bound_claims_type: boundClaimsType(pick('bound_claims_type', current?.bound_claims_type ?? 'string')),
    claim_mappings: pick('claim_mappings', current?.claim_mappings ?? {}),
    user_claim: pick('user_claim', current?.user_claim ?? ''),
    user_claim_json_pointer: pick('user_claim_json_pointer', current?.user_claim_json_pointer ?? false),
    groups_claim: pick('groups_claim', current?.groups_claim ?? ''),
    oidc_scopes: pick('oidc_scopes', current?.oidc_scopes ?? []),
    allowed_redirect_uris: pick('allowed_redirect_uris', current?.allowed_redirect_uris ?? []),
    verbose_oidc_logging: pick('verbose_oidc_logging', current?.verbose_oidc_logging ?? false),
    max_age: pick('max_age', current?.max_age ?? 0),
    clock_skew_leeway: pick('clock_skew_leeway', current?.clock_skew_leeway ?? DEFAULT_CLOCK_SKEW_LEEWAY),
    expiration_leeway: pick('expiration_leeway', current?.expiration_leeway ?? DEFAULT_EXPIRATION_LEEWAY),
    not_before_leeway: pick('not_before_leeway', current?.not_before_leeway ?? DEFAULT_NOT_BEFORE_LEEWAY),
    token: applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, data, supplied),
  };
  check(role);
  await jwtStore.putRole(storage, data.name, role);
  return undefined;
}

function check(role: JwtRole): void {
  if (!role.user_claim) throw new InvalidRequestError('a user claim must be defined on the role');
  if (role.max_age < 0) throw new InvalidRequestError("'max_age' cannot be negative");
  if (role.role_type === 'oidc' && role.allowed_redirect_uris.length === 0)
    throw new InvalidRequestError("'allowed_redirect_uris' must be set if 'role_type' is 'oidc' or unspecified.");
  if (role.role_type === 'jwt') {
    const isBound =
      role.bound_audiences.length > 0 ||
      role.bound_subject !== '' ||
      Object.keys(role.bound_claims).length > 0 ||
      role.token.token_bound_cidrs.length > 0;
    if (!isBound)
      throw new InvalidRequestError('must have at least one bound constraint when creating/updating a role');
  }
  const targets = new Set<string>();
  for (const target of Object.values(role.claim_mappings)) {
    if (targets.has(target)) throw new InvalidRequestError(`multiple keys are mapped to metadata key "${target}"`);
    if (target === 'role')
      throw new InvalidRequestError('metadata key "role" is reserved and may not be a mapping target');
    targets.add(target);
  }
  if (role.bound_claims_type === 'glob')
    for (const values of Object.values(role.bound_claims))
      if (values.length === 0) throw new InvalidRequestError('bound_claims with type glob must have values');
}

function boundClaimsType(value: string): 'string' | 'glob' {
  if (value === '' || value === 'string') return 'string';
  if (value === 'glob') return 'glob';
  throw new InvalidRequestError(`invalid 'bound_claims_type': ${value}`);
}

/** Each bound claim's value, a string or a list of strings (numbers and booleans as their text). */
function boundClaimsOf(raw: Record<string, unknown> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [claim, value] of Object.entries(raw ?? {})) {
    const list = Array.isArray(value) ? value : [value];
    out[claim] = list.map((v) => {
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      throw new InvalidRequestError(`bound claim is not a string or list: ${claim}`);
    });
  }
  return out;
}
