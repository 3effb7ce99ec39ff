import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** One JWKS endpoint of `jwks_pairs` and the CA certificates (PEM) it is reached with ('' = the system's). */
export interface JwksPair {
  jwks_url: string;
  jwks_ca_pem: string;
}

/** The method's configuration: exactly one source of verification keys, and the OIDC client when used. */
export interface JwtConfig {
  oidc_discovery_url: string;
  oidc_discovery_ca_pem: string;
  oidc_client_id: string;
  /** Never shown on read. */
  oidc_client_secret: string;
  /** `query` (default) or `form_post`. */
  oidc_response_mode: string;
  oidc_response_types: string[];
  jwks_url: string;
  jwks_ca_pem: string;
  /** Several JWKS endpoints (instead of `jwks_url`); a token's key is found by its `kid`. */
  jwks_pairs: JwksPair[];
  jwt_validation_pubkeys: string[];
  jwt_supported_algs: string[];
  bound_issuer: string;
  default_role: string;
  provider_config: Record<string, unknown>;
  namespace_in_state: boolean;
}

export const EMPTY_CONFIG: JwtConfig = {
  oidc_discovery_url: '',
  oidc_discovery_ca_pem: '',
  oidc_client_id: '',
  oidc_client_secret: '',
  oidc_response_mode: '',
  oidc_response_types: [],
  jwks_url: '',
  jwks_ca_pem: '',
  jwks_pairs: [],
  jwt_validation_pubkeys: [],
  jwt_supported_algs: [],
  bound_issuer: '',
  default_role: '',
  provider_config: {},
  namespace_in_state: true,
};

/** A role: what a token must say to log in, and how its claims become the alias, metadata and groups. */
export interface JwtRole {
  role_type: 'jwt' | 'oidc';
  bound_audiences: string[];
  bound_subject: string;
  /** Claim (name or JSON pointer) → accepted values. */
  bound_claims: Record<string, string[]>;
  bound_claims_type: 'string' | 'glob';
  /** Claim → metadata key. */
  claim_mappings: Record<string, string>;
  user_claim: string;
  user_claim_json_pointer: boolean;
  groups_claim: string;
  oidc_scopes: string[];
  allowed_redirect_uris: string[];
  verbose_oidc_logging: boolean;
  /** Seconds; 0 = not sent. */
  max_age: number;
  /** Seconds each; negative = none. */
  clock_skew_leeway: number;
  expiration_leeway: number;
  not_before_leeway: number;
  token: TokenParams;
}

export const jwtStore = {
  config: async (s: Storage): Promise<JwtConfig | undefined> => {
    const stored = await getJson<JwtConfig>(s, 'config');
    return stored && { ...EMPTY_CONFIG, ...stored };
  },
  putConfig: (s: Storage, c: JwtConfig) => putJson(s, 'config', c),
  role: (s: Storage, name: string) => getJson<JwtRole>(s, `role/${name.toLowerCase()}`),
  putRole: (s: Storage, name: string, r: JwtRole) => putJson(s, `role/${name.toLowerCase()}`, r),
  deleteRole: (s: Storage, name: string) => s.delete(`role/${name.toLowerCase()}`),
  roles: (s: Storage) => s.list('role/'),
};
