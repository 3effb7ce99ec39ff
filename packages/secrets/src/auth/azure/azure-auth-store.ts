import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** The tenant whose managed identities log in (`config`). Field names keep the API's spelling. */
export interface AzureAuthConfig {
  tenant_id: string;
  /** The audience login tokens must carry (the resource the MSI token was asked for). */
  resource: string;
  /** Cloud name ('' = the public cloud). */
  environment: string;
  /** For the VM lookups through Resource Manager; empty: the server's managed identity. */
  client_id: string;
  /** Never shown. */
  client_secret: string;
}

/** A role: which identities (and which machines) may log in, and their tokens. */
export interface AzureAuthRole {
  bound_service_principal_ids: string[];
  bound_group_ids: string[];
  bound_locations: string[];
  bound_subscription_ids: string[];
  bound_resource_groups: string[];
  bound_scale_sets: string[];
  token: TokenParams;
}

export const azureAuthStore = {
  config: (s: Storage) => getJson<AzureAuthConfig>(s, 'config'),
  putConfig: (s: Storage, c: AzureAuthConfig) => putJson(s, 'config', c),
  deleteConfig: (s: Storage) => s.delete('config'),
  // Role names are case-insensitive: stored lower-cased.
  role: (s: Storage, name: string) => getJson<AzureAuthRole>(s, `role/${name.toLowerCase()}`),
  putRole: (s: Storage, name: string, r: AzureAuthRole) => putJson(s, `role/${name.toLowerCase()}`, r),
  deleteRole: (s: Storage, name: string) => s.delete(`role/${name.toLowerCase()}`),
  roles: (s: Storage) => s.list('role/'),
};
