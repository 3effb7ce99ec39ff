import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** Where the cluster is and how to ask it about tokens (`config`). */
export interface KubernetesConfig {
  kubernetes_host: string;
  kubernetes_ca_cert: string;
  /** The JWT the TokenReview request is made with; empty: the login's own JWT. Never shown. */
  token_reviewer_jwt: string;
  /** PEM public keys or certificates: login JWTs are also verified locally with them. */
  pem_keys: string[];
  issuer: string;
  disable_iss_validation: boolean;
  disable_local_ca_jwt: boolean;
}

export interface KubernetesRole {
  bound_service_account_names: string[];
  bound_service_account_namespaces: string[];
  /** A label selector (JSON) binding namespaces by their labels; '' = none. */
  bound_service_account_namespace_selector?: string;
  audience: string;
  alias_name_source: 'serviceaccount_uid' | 'serviceaccount_name';
  token: TokenParams;
}

export const k8sStore = {
  config: (s: Storage) => getJson<KubernetesConfig>(s, 'config'),
  putConfig: (s: Storage, c: KubernetesConfig) => putJson(s, 'config', c),
  role: (s: Storage, name: string) => getJson<KubernetesRole>(s, `role/${name.toLowerCase()}`),
  putRole: (s: Storage, name: string, r: KubernetesRole) => putJson(s, `role/${name.toLowerCase()}`, r),
  deleteRole: (s: Storage, name: string) => s.delete(`role/${name.toLowerCase()}`),
  roles: (s: Storage) => s.list('role/'),
};
