/** `service` tokens are stored and revocable; `batch` tokens are encrypted blobs, never stored. */
export type TokenType = 'service' | 'batch';

/**
 * What the token store keeps about a token. The token itself is never stored, only its
 * HMAC (`hash`). Wire names keep the established spelling; times carry their unit.
 */
export interface TokenEntry {
  /** HMAC of the token text under the store's salt: the storage key. `''` for batch tokens. */
  hash: string;
  /** 24 base62 characters; `''` for batch tokens (they have none). */
  accessor: string;
  /** Accessor of the parent token, `''` for an orphan. */
  parent_accessor: string;
  /** Sorted, deduplicated, lower case; `['root']` alone for root tokens. */
  policies: string[];
  /** Request path that created the token (`auth/token/create`, `auth/userpass/login/alice`). */
  path: string;
  meta: Record<string, string> | null;
  /** `token-<name>` for tokens made through `auth/token/create`, `root` for root tokens. */
  display_name: string;
  /** Uses left; 0 = unlimited; -1 = the last use was spent and revocation is pending. */
  num_uses: number;
  creation_time_ms: number;
  /** TTL given at creation, in seconds (0 = never expires). */
  creation_ttl: number;
  /** TTL set by the last issue or renewal, in seconds (0 = never expires). */
  ttl: number;
  /** Hard cap on the lifetime from creation, in seconds; 0 = none. */
  explicit_max_ttl: number;
  /** Seconds each renewal sets the TTL to; 0 = not periodic. */
  period: number;
  renewable: boolean;
  type: TokenType;
  /** CIDR blocks the token may be used from; empty = anywhere. */
  bound_cidrs: string[];
  /** Role the token was created through, `''` when none. */
  role: string;
  entity_id: string;
  /** Namespace the token belongs to (`root` for the root namespace); it works there and below. */
  namespace_id?: string;
  orphan: boolean;
  /** 0 = never renewed. */
  last_renewal_time_ms: number;
  /** When the token stops being valid; 0 = never. */
  expire_time_ms: number;
}

/** The lease id the expiration manager keeps for a service token: `<creation path>/<hash>`. */
export function tokenLeaseId(entry: TokenEntry): string {
  return `${entry.path}/${entry.hash}`;
}

/** Whether the entry may still be used at `nowMs`: not expired and uses not exhausted. */
export function isLive(entry: TokenEntry, nowMs: number): boolean {
  if (entry.num_uses < 0) return false;
  return entry.expire_time_ms === 0 || entry.expire_time_ms > nowMs;
}
