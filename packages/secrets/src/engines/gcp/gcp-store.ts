import type { ServiceAccountCredentials } from '../../google/credentials.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** Where the engine calls Google (`custom_endpoint`, a Ward extension for private endpoints and tests). */
export interface EngineEndpoints {
  iam?: string;
  iamcredentials?: string;
  crm?: string;
}

export interface EngineConfig {
  /** The account the engine acts as; absent: Application Default Credentials. */
  credentials?: ServiceAccountCredentials;
  /** Default and maximum lease of service account keys, seconds; 0: the mount's. */
  ttl: number;
  max_ttl: number;
  endpoints: EngineEndpoints;
}

/** IAM roles granted per resource (`projects/<id>`), in the order written. */
export type Bindings = [string, string[]][];

/** A key kept to mint access tokens (its JSON key file) and its IAM name, to delete it. */
export interface TokenKey {
  name: string;
  json: string;
}

export type SecretType = 'access_token' | 'service_account_key';

/** A roleset: a service account Ward created, with its bindings, handing out tokens or keys. */
export interface Roleset {
  secret_type: SecretType;
  project: string;
  bindings: Bindings;
  token_scopes: string[];
  service_account_email: string;
  token_key?: TokenKey;
}

/** A static account: an existing service account, optionally given bindings, handing out tokens or keys. */
export interface StaticAccount {
  secret_type: SecretType;
  service_account_email: string;
  service_account_project: string;
  bindings: Bindings;
  token_scopes: string[];
  token_key?: TokenKey;
}

/** An impersonated account: tokens minted for an existing account through IAM credentials. */
export interface ImpersonatedAccount {
  service_account_email: string;
  service_account_project: string;
  token_scopes: string[];
  /** Lifetime of minted tokens, seconds; 0: an hour. */
  ttl: number;
}

const kind = <T>(prefix: string) => ({
  get: (s: Storage, name: string) => getJson<T>(s, `${prefix}/${name}`),
  put: (s: Storage, name: string, value: T) => putJson(s, `${prefix}/${name}`, value),
  delete: (s: Storage, name: string) => s.delete(`${prefix}/${name}`),
  list: (s: Storage) => s.list(`${prefix}/`),
});

export const gcpEngineStore = {
  config: async (s: Storage): Promise<EngineConfig> =>
    (await getJson<EngineConfig>(s, 'config')) ?? { ttl: 0, max_ttl: 0, endpoints: {} },
  putConfig: (s: Storage, c: EngineConfig) => putJson(s, 'config', c),
  rolesets: kind<Roleset>('roleset'),
  staticAccounts: kind<StaticAccount>('static-account'),
  impersonated: kind<ImpersonatedAccount>('impersonated-account'),
};
