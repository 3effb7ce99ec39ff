/** What the token store keeps about a token. The token itself is never stored, only its HMAC. */
export interface TokenEntry {
  accessor: string;
  policies: string[];
  /** Request path that created the token (`auth/token/root`, `auth/userpass/login/alice`). */
  path: string;
  meta: Record<string, string> | null;
  display_name: string;
  /** Uses left; 0 = unlimited. */
  num_uses: number;
  /** Unix seconds. */
  creation_time: number;
  /** Seconds the token lives from creation (0 = never expires). */
  ttl: number;
  explicit_max_ttl: number;
  entity_id: string;
  type: 'service' | 'batch';
  /** Accessor of the parent token, `''` for an orphan. */
  parent_accessor: string;
}
