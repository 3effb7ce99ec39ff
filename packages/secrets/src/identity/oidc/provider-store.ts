import { createHash } from 'node:crypto';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { oidcStore } from './oidc-store.js';

/** An OpenID provider: who may use it and which scopes it answers. */
export interface ProviderRecord {
  /** `scheme://host:port`, `''` for the server's `api_addr`. */
  issuer: string;
  allowed_client_ids: string[];
  scopes_supported: string[];
}

/** A relying party registered with the providers. */
export interface ClientRecord {
  name: string;
  redirect_uris: string[];
  assignments: string[];
  /** The named key (`identity/oidc/key/<key>`) that signs its ID tokens; fixed at creation. */
  key: string;
  /** Seconds. */
  id_token_ttl: number;
  access_token_ttl: number;
  client_type: 'confidential' | 'public';
  client_id: string;
  /** `''` for public clients. */
  client_secret: string;
}

/** Who may sign in through a client: entities, or members (direct or inherited) of groups. */
export interface AssignmentRecord {
  entity_ids: string[];
  group_ids: string[];
}

/** Claims a scope adds to ID tokens and userinfo, as a JSON template. */
export interface ScopeRecord {
  template: string;
  description: string;
}

/** A granted authorization code, until the client exchanges it (once) or it expires. */
export interface AuthCodeRecord {
  provider: string;
  client_id: string;
  entity_id: string;
  redirect_uri: string;
  nonce: string;
  scopes: string[];
  code_challenge: string;
  code_challenge_method: string;
  expires_at_ms: number;
}

/** An issued access token: what userinfo may tell about whom, until it expires. */
export interface AccessTokenRecord {
  provider: string;
  client_id: string;
  entity_id: string;
  scopes: string[];
  expires_at_ms: number;
}

export const DEFAULT_PROVIDER = 'default';
export const DEFAULT_KEY = 'default';
export const ALLOW_ALL_ASSIGNMENT = 'allow_all';
const DAY = 86_400;

/** Codes and access tokens are kept under their hash: a storage read does not reveal one usable. */
const hashed = (secret: string) => createHash('sha256').update(secret).digest('hex');

const P = 'oidc_provider/';

export const providerStore = {
  provider: (s: Storage, name: string) => getJson<ProviderRecord>(s, `${P}provider/${name}`),
  putProvider: (s: Storage, name: string, r: ProviderRecord) => putJson(s, `${P}provider/${name}`, r),
  deleteProvider: (s: Storage, name: string) => s.delete(`${P}provider/${name}`),
  providers: (s: Storage) => s.list(`${P}provider/`),
  client: (s: Storage, name: string) => getJson<ClientRecord>(s, `${P}client/${name}`),
  putClient: (s: Storage, name: string, r: ClientRecord) => putJson(s, `${P}client/${name}`, r),
  deleteClient: (s: Storage, name: string) => s.delete(`${P}client/${name}`),
  clientNames: (s: Storage) => s.list(`${P}client/`),
  assignment: (s: Storage, name: string) => getJson<AssignmentRecord>(s, `${P}assignment/${name}`),
  putAssignment: (s: Storage, name: string, r: AssignmentRecord) => putJson(s, `${P}assignment/${name}`, r),
  deleteAssignment: (s: Storage, name: string) => s.delete(`${P}assignment/${name}`),
  assignments: (s: Storage) => s.list(`${P}assignment/`),
  scope: (s: Storage, name: string) => getJson<ScopeRecord>(s, `${P}scope/${name}`),
  putScope: (s: Storage, name: string, r: ScopeRecord) => putJson(s, `${P}scope/${name}`, r),
  deleteScope: (s: Storage, name: string) => s.delete(`${P}scope/${name}`),
  scopes: (s: Storage) => s.list(`${P}scope/`),
  code: (s: Storage, code: string) => getJson<AuthCodeRecord>(s, `${P}code/${hashed(code)}`),
  putCode: (s: Storage, code: string, r: AuthCodeRecord) => putJson(s, `${P}code/${hashed(code)}`, r),
  deleteCode: (s: Storage, code: string) => s.delete(`${P}code/${hashed(code)}`),
  accessToken: (s: Storage, token: string) => getJson<AccessTokenRecord>(s, `${P}access/${hashed(token)}`),
  putAccessToken: (s: Storage, token: string, r: AccessTokenRecord) => putJson(s, `${P}access/${hashed(token)}`, r),

  /** Every client (a provider has few; looked up by `client_id` by a scan). */
  async clients(s: Storage): Promise<ClientRecord[]> {
    const out: ClientRecord[] = [];
    for (const name of await s.list(`${P}client/`)) {
      const c = await getJson<ClientRecord>(s, `${P}client/${name}`);
      if (c) out.push(c);
    }
    return out;
  },
  async clientById(s: Storage, clientId: string): Promise<ClientRecord | undefined> {
    if (clientId === '') return undefined;
    return (await providerStore.clients(s)).find((c) => c.client_id === clientId);
  },

  /** Drops codes and access tokens past their expiry (a periodic sweep). */
  async sweep(s: Storage, nowMs: number): Promise<void> {
    for (const kind of ['code', 'access']) {
      for (const key of await s.list(`${P}${kind}/`)) {
        const r = await getJson<{ expires_at_ms: number }>(s, `${P}${kind}/${key}`);
        if (!r || r.expires_at_ms <= nowMs) await s.delete(`${P}${kind}/${key}`);
      }
    }
  },
};

/**
 * The established defaults every namespace has: the `default` provider (any client, no extra
 * scopes), the `default` key (RS256, 24h rotation and verification, any client; its key
 * material made when a client or role first uses it) and the `allow_all` assignment.
 * Written when missing; a deleted default key comes back the same way.
 */
export async function ensureDefaults(s: Storage): Promise<void> {
  if (!(await providerStore.provider(s, DEFAULT_PROVIDER)))
    await providerStore.putProvider(s, DEFAULT_PROVIDER, {
      issuer: '',
      allowed_client_ids: ['*'],
      scopes_supported: [],
    });
  if (!(await oidcStore.key(s, DEFAULT_KEY)))
    await oidcStore.putKey(s, DEFAULT_KEY, {
      algorithm: 'RS256',
      allowed_client_ids: ['*'],
      rotation_period: DAY,
      verification_ttl: DAY,
      generations: [],
    });
  if (!(await providerStore.assignment(s, ALLOW_ALL_ASSIGNMENT)))
    await providerStore.putAssignment(s, ALLOW_ALL_ASSIGNMENT, { entity_ids: ['*'], group_ids: ['*'] });
}
