import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** The mount's configuration: which organization's members may log in, where GitHub's API is. */
export interface GitHubConfig {
  organization: string;
  /** The organization's numeric id: membership is checked by id, so a renamed org's impostor is not it. */
  organization_id: number;
  /** `''` = GitHub's public API. Always ends with `/`. */
  base_url: string;
  token: TokenParams;
}

/** The config under `config`; policies of teams and users under `map/teams/<name>` and `map/users/<name>`. */
export const githubStore = {
  config: (storage: Storage) => getJson<GitHubConfig>(storage, 'config'),
  putConfig: (storage: Storage, config: GitHubConfig) => putJson(storage, 'config', config),
};

export type MapKind = 'teams' | 'users';

/** One mapping: a team or user name (lower case) to policies, kept as the `value` written. */
export interface PolicyMapping {
  key: string;
  value: string;
}

export const policyMaps = {
  get: (storage: Storage, kind: MapKind, key: string) => getJson<PolicyMapping>(storage, `map/${kind}/${key}`),
  put: (storage: Storage, kind: MapKind, mapping: PolicyMapping) =>
    putJson(storage, `map/${kind}/${mapping.key}`, mapping),
  delete: (storage: Storage, kind: MapKind, key: string) => storage.delete(`map/${kind}/${key}`),
  list: (storage: Storage, kind: MapKind) => storage.list(`map/${kind}/`),
  /** The policies mapped to any of `keys` (names compared case-insensitively), each once, in order. */
  async policies(storage: Storage, kind: MapKind, keys: readonly string[]): Promise<string[]> {
    const policies = new Set<string>();
    for (const key of new Set(keys.map((k) => k.toLowerCase()))) {
      const mapping = await policyMaps.get(storage, kind, key);
      for (const p of (mapping?.value ?? '').split(',')) if (p.trim()) policies.add(p.trim());
    }
    return [...policies];
  },
};
