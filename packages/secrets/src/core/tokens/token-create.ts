import { InvalidRequestError } from '../../logical/errors.js';
import type { TokenEntry, TokenType } from './token-entry.js';
import { resolvePolicies } from './token-policies.js';
import type { TokenRole } from './token-roles.js';
import { calculateTtl, type MountTtls } from './token-ttl.js';

/** The parameters of `auth/token/create` after field parsing. Durations in seconds; 0 = not set. */
export interface CreateTokenRequest {
  /** Request path that creates the token (`auth/token/create`, `auth/token/create/<role>`). */
  path: string;
  /** Custom token text (sudo only). */
  id?: string;
  policies?: string[];
  meta?: Record<string, string> | null;
  noParent?: boolean;
  noDefaultPolicy?: boolean;
  /** Defaults to true. */
  renewable?: boolean;
  ttl?: number;
  explicitMaxTtl?: number;
  period?: number;
  displayName?: string;
  numUses?: number;
  /** `service`, `batch`, or `''`/absent for the role's or the default type. */
  type?: string;
  entityAlias?: string;
  /** Set by `create-orphan`, which needs no sudo to make an orphan. */
  orphan?: boolean;
}

/** Who creates the token and under which limits. */
export interface CreateContext {
  /** The caller's token: the new token's parent unless it is an orphan. */
  parent: TokenEntry;
  /** Whether the caller has `sudo` (or root) on the create path. */
  isSudo: boolean;
  role?: TokenRole;
  mount: MountTtls;
  nowMs: number;
  /** Namespace the token is created in (its text ends in `.<id>` outside the root namespace). */
  namespaceId?: string;
}

/** A new token's entry before it gets its text, hash and accessor. */
export interface PlannedToken {
  entry: Omit<TokenEntry, 'hash' | 'accessor'>;
  warnings: string[];
}

const sudoOnly = (what: string) => new InvalidRequestError(`root or sudo privileges required to ${what}`);

/**
 * Applies the established create rules to a request, in their established order, and
 * returns the entry to issue. Throws `InvalidRequestError` with the established texts.
 */
export function planToken(req: CreateTokenRequest, ctx: CreateContext): PlannedToken {
  const { parent, role, isSudo } = ctx;
  if (parent.type === 'batch') throw new InvalidRequestError('batch tokens cannot create more tokens');
  if (parent.num_uses !== 0) throw new InvalidRequestError('restricted use token cannot generate child tokens');
  if ((req.numUses ?? 0) < 0) throw new InvalidRequestError('number of uses cannot be negative');
  checkEntityAlias(req, role);
  const type = tokenType(req.type ?? '', role);
  if (type === 'batch') checkBatchRequest(req);
  if (req.id !== undefined && req.id !== '') checkCustomId(req.id, isSudo);
  if (req.noParent && !isSudo) throw sudoOnly('create orphan token');
  if ((req.period ?? 0) > 0 && !isSudo) throw sudoOnly('create periodic token');

  const orphan = Boolean(req.noParent || req.orphan || role?.orphan);
  const period = lesser(req.period ?? 0, role?.token_period ?? 0);
  const explicitMaxTtl = lesser(req.explicitMaxTtl ?? 0, role?.token_explicit_max_ttl ?? 0);
  const numUses = lesser(req.numUses ?? 0, role?.token_num_uses ?? 0);
  const policies = resolvePolicies({
    policies: req.policies ?? [],
    noDefaultPolicy: req.noDefaultPolicy ?? false,
    isSudo,
    parent,
    role,
  });
  const isRoot = policies.includes('root');
  if (isRoot && type === 'batch') throw new InvalidRequestError('batch tokens cannot be root tokens');
  const requestedTtl = req.ttl ?? 0;
  if (isRoot && requestedTtl === 0 && period === 0 && parent.expire_time_ms !== 0) {
    throw new InvalidRequestError('expiring root tokens cannot create non-expiring root tokens');
  }

  let ttl = 0;
  let warnings: string[] = [];
  if (!isRoot || requestedTtl > 0 || period > 0) {
    ({ ttlSeconds: ttl, warnings } = calculateTtl({
      mount: ctx.mount,
      nowMs: ctx.nowMs,
      startMs: ctx.nowMs,
      requested: 0,
      backendTtl: requestedTtl > 0 ? requestedTtl : (role?.token_ttl ?? 0),
      backendMaxTtl: role?.token_max_ttl ?? 0,
      explicitMaxTtl,
      period,
    }));
  }
  const renewable = type === 'service' && ttl > 0 && (req.renewable ?? true) && (role?.renewable ?? true);
  return {
    entry: {
      parent_accessor: orphan ? '' : parent.accessor,
      policies,
      path: req.path,
      meta: req.meta && Object.keys(req.meta).length > 0 ? req.meta : null,
      display_name: displayName(req.displayName ?? ''),
      num_uses: numUses,
      creation_time_ms: ctx.nowMs,
      creation_ttl: ttl,
      ttl,
      explicit_max_ttl: explicitMaxTtl,
      period,
      renewable,
      type,
      bound_cidrs: role ? role.token_bound_cidrs : parent.bound_cidrs,
      role: role?.name ?? '',
      // Inherited, orphan or not, as established (an `entity_alias` replaces it): disabling the
      // entity then stops every token made from a login's token too (issue 28).
      entity_id: parent.entity_id,
      namespace_id: ctx.namespaceId ?? 'root',
      orphan,
      last_renewal_time_ms: 0,
      expire_time_ms: ttl > 0 ? ctx.nowMs + ttl * 1000 : 0,
    },
    warnings,
  };
}

/** `token-<name>`, runs of characters outside `[A-Za-z0-9-]` becoming one `-`, no trailing `-`; default `token`. */
export function displayName(name: string): string {
  if (name === '') return 'token';
  return `token-${name}`.replace(/[^a-zA-Z0-9-]+/g, '-').replace(/-$/, '');
}

/** The smaller of two limits where 0 means "none". */
function lesser(a: number, b: number): number {
  if (a === 0) return b;
  if (b === 0) return a;
  return Math.min(a, b);
}

function tokenType(requested: string, role: TokenRole | undefined): TokenType {
  let type = requested;
  switch (role?.token_type) {
    case 'service':
    case 'batch':
      type = role.token_type;
      break;
    case 'default-batch':
      if (type === '') type = 'batch';
      break;
    default:
      break;
  }
  if (type === '' || type === 'service') return 'service';
  if (type === 'batch') return 'batch';
  throw new InvalidRequestError(`invalid 'type' value "${requested}"`);
}

function checkBatchRequest(req: CreateTokenRequest): void {
  const set: Array<[string, boolean]> = [
    ['id', (req.id ?? '') !== ''],
    ['explicit_max_ttl', (req.explicitMaxTtl ?? 0) > 0],
    ['num_uses', (req.numUses ?? 0) > 0],
    ['period', (req.period ?? 0) > 0],
  ];
  for (const [field, isSet] of set) {
    if (isSet) throw new InvalidRequestError(`batch tokens cannot have "${field}" set`);
  }
}

function checkCustomId(id: string, isSudo: boolean): void {
  if (!isSudo) throw sudoOnly('specify token id');
  for (const prefix of ['hvs.', 's.', 'hvb.', 'b.', 'hvr.', 'r.']) {
    if (id.startsWith(prefix)) throw new InvalidRequestError(`custom token ID cannot have the '${prefix}' prefix`);
  }
  if (id.includes('.')) throw new InvalidRequestError("custom token ID cannot have a '.' in the value");
}

function checkEntityAlias(req: CreateTokenRequest, role: TokenRole | undefined): void {
  if (!req.entityAlias) return;
  if (!role) throw new InvalidRequestError("'entity_alias' is only allowed in combination with token role");
  const alias = req.entityAlias.toLowerCase();
  if (!role.allowed_entity_aliases.some((a) => a.toLowerCase() === alias || a === '*')) {
    throw new InvalidRequestError("invalid 'entity_alias' value");
  }
  // Allowed: the token store binds the token to that alias's entity (`TokenStoreHooks.entityForAlias`).
}
