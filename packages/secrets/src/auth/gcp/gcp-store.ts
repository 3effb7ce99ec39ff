import type { GoogleEndpoints } from '../../google/apis.js';
import type { ServiceAccountCredentials } from '../../google/credentials.js';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** Google's API host, where service accounts' public keys and Google's own signing keys are published. */
export const DEFAULT_API_ENDPOINT = 'https://www.googleapis.com';

export interface GcpConfig {
  /** Base URL of Google's API (`custom_endpoint.api`), for private endpoints and tests. */
  api_endpoint: string;
  /** `custom_endpoint.iam`, `.crm`, `.compute`: the APIs a `gce` login (and group aliases) call. */
  iam_endpoint?: string;
  crm_endpoint?: string;
  compute_endpoint?: string;
  /** The service account the method calls Google's APIs as; absent: Application Default Credentials. */
  credentials?: ServiceAccountCredentials;
}

/** The API endpoints of a configuration, as the SDK clients take them. */
export const endpointsOf = (c: GcpConfig): GoogleEndpoints => ({
  iam: c.iam_endpoint,
  crm: c.crm_endpoint,
  compute: c.compute_endpoint,
});

interface RoleBase {
  bound_service_accounts: string[];
  bound_projects: string[];
  /** Logins get group aliases for the project and its ancestors (Resource Manager `getAncestry`). */
  add_group_aliases: boolean;
  token: TokenParams;
}

/** An `iam` role: which service accounts (and projects) may log in with a JWT they signed. */
export interface IamRole extends RoleBase {
  type: 'iam';
  /** How far in the future a login JWT's `exp` may be, in seconds. */
  max_jwt_exp: number;
  /** A GCE instance identity token may log in as the instance's service account. */
  allow_gce_inference: boolean;
}

/** A `gce` role: which Compute Engine instances may log in with their instance identity token. */
export interface GceRole extends RoleBase {
  type: 'gce';
  bound_zones: string[];
  bound_regions: string[];
  bound_instance_groups: string[];
  /** `key:value` pairs the instance's labels must all have, in the order given. */
  bound_labels: [string, string][];
}

export type GcpRole = IamRole | GceRole;

/** A role as stored before `gce` roles existed. */
type StoredRole = GcpRole | (Omit<IamRole, 'add_group_aliases' | 'allow_gce_inference'> & { type: 'iam' });

function upgraded(role: StoredRole | undefined): GcpRole | undefined {
  if (!role) return undefined;
  if (role.type === 'gce') return role;
  return { add_group_aliases: false, allow_gce_inference: false, ...role };
}

export const gcpStore = {
  config: async (s: Storage): Promise<GcpConfig> =>
    (await getJson<GcpConfig>(s, 'config')) ?? { api_endpoint: DEFAULT_API_ENDPOINT },
  putConfig: (s: Storage, c: GcpConfig) => putJson(s, 'config', c),
  role: async (s: Storage, name: string) => upgraded(await getJson<StoredRole>(s, `role/${name}`)),
  putRole: (s: Storage, name: string, r: GcpRole) => putJson(s, `role/${name}`, r),
  deleteRole: (s: Storage, name: string) => s.delete(`role/${name}`),
  roles: (s: Storage) => s.list('role/'),
};
