import type { JWK } from 'jose';
import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** A signing key's generations: the current one signs, the previous ones verify until they expire. */
export interface NamedKey {
  algorithm: string;
  allowed_client_ids: string[];
  /** Seconds. */
  rotation_period: number;
  verification_ttl: number;
  /** When the scheduler next rotates it (ms); absent on keys written before rotation was scheduled. */
  next_rotation_ms?: number;
  /** Newest first; `private` only on the current one. */
  generations: Array<{ kid: string; public: JWK; private?: JWK; expires_at_ms: number }>;
  /**
   * The key that signs after the next rotation, published already (as established), so a relying
   * party's cached key set verifies the first tokens it signs. Absent before the first key material.
   */
  next?: { kid: string; public: JWK; private: JWK };
}

export interface OidcRole {
  key: string;
  template: string;
  client_id: string;
  /** Seconds. */
  ttl: number;
}

export const oidcStore = {
  issuer: async (s: Storage) => (await getJson<{ issuer: string }>(s, 'oidc/config'))?.issuer ?? '',
  putIssuer: (s: Storage, issuer: string) => putJson(s, 'oidc/config', { issuer }),
  key: (s: Storage, name: string) => getJson<NamedKey>(s, `oidc/key/${name}`),
  putKey: (s: Storage, name: string, k: NamedKey) => putJson(s, `oidc/key/${name}`, k),
  deleteKey: (s: Storage, name: string) => s.delete(`oidc/key/${name}`),
  keys: (s: Storage) => s.list('oidc/key/'),
  role: (s: Storage, name: string) => getJson<OidcRole>(s, `oidc/role/${name}`),
  putRole: (s: Storage, name: string, r: OidcRole) => putJson(s, `oidc/role/${name}`, r),
  deleteRole: (s: Storage, name: string) => s.delete(`oidc/role/${name}`),
  roles: (s: Storage) => s.list('oidc/role/'),
};

/** The public keys of `key` that verify now: its generations not yet expired and the next key. */
export function verifyingKeys(key: NamedKey | undefined, nowMs: number): JWK[] {
  if (!key) return [];
  const keys = key.generations.filter((g) => g.expires_at_ms > nowMs).map((g) => g.public);
  return key.next ? [...keys, key.next.public] : keys;
}

/**
 * `<issuer>/v1/<namespace>identity/oidc`: the `iss` of every token and the discovery base. Without a
 * configured issuer, the server's own address (`api_addr`, else its first listener), as established.
 */
export function issuerUrl(issuer: string, d: { apiAddr(): string; namespace: { path: string } }): string {
  return `${(issuer || d.apiAddr()).replace(/\/+$/, '')}/v1/${d.namespace.path}identity/oidc`;
}
