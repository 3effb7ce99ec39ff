/** `auth` block of a login or token-creation response. */
export interface AuthResponse {
  client_token: string;
  accessor: string;
  policies: string[];
  token_policies: string[];
  identity_policies?: string[];
  metadata: Record<string, string> | null;
  lease_duration: number;
  renewable: boolean;
  entity_id: string;
  token_type: 'service' | 'batch';
  orphan: boolean;
  num_uses: number;
  mfa_requirement: null;
}

/** A secret with a lifetime (KV reports a TTL without registering a lease). */
export interface SecretLease {
  leaseId: string;
  leaseDurationSeconds: number;
  renewable: boolean;
}

/** What a backend handler returns; `undefined` means "done, nothing to say" (HTTP 204). */
export interface LogicalResponse {
  data?: Record<string, unknown> | null;
  warnings?: string[];
  auth?: AuthResponse;
  secret?: SecretLease;
  /** Some `sys/` routes also copy `data` to the top level of the envelope, as established clients expect. */
  dataAtTopLevel?: boolean;
  /**
   * Send this status with the normal envelope instead of 200 (KV v2 answers a deleted
   * version with 404 and the full envelope, not the error envelope).
   */
  status?: number;
  /** Send `body` as is, without the envelope (init, seal-status, health, help). */
  raw?: { status: number; body: unknown };
}
