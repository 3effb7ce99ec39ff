import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** Google's API host, where service accounts' public keys are published. */
export const DEFAULT_API_ENDPOINT = 'https://www.googleapis.com';

export interface GcpConfig {
  /** Base URL of Google's API (`custom_endpoint.api`), for private endpoints and tests. */
  api_endpoint: string;
}

/** An `iam` role: which service accounts (and projects) may log in, and their tokens. */
export interface GcpRole {
  type: 'iam';
  bound_service_accounts: string[];
  bound_projects: string[];
  /** How far in the future a login JWT's `exp` may be, in seconds. */
  max_jwt_exp: number;
  token: TokenParams;
}

export const gcpStore = {
  config: async (s: Storage): Promise<GcpConfig> =>
    (await getJson<GcpConfig>(s, 'config')) ?? { api_endpoint: DEFAULT_API_ENDPOINT },
  putConfig: (s: Storage, c: GcpConfig) => putJson(s, 'config', c),
  deleteConfig: (s: Storage) => s.delete('config'),
  role: (s: Storage, name: string) => getJson<GcpRole>(s, `role/${name}`),
  putRole: (s: Storage, name: string, r: GcpRole) => putJson(s, `role/${name}`, r),
  deleteRole: (s: Storage, name: string) => s.delete(`role/${name}`),
  roles: (s: Storage) => s.list('role/'),
};
