import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { TokenParams } from '../common/index.js';

/** The method's Okta organization (`config`). Field names keep the API's spelling. */
export interface OktaConfig {
  org_name: string;
  /** Never shown. Without it, only the groups set locally on `users/` count. */
  api_token: string;
  /** The org's domain (`okta.com`, `oktapreview.com`, `okta-emea.com`); empty: from `production`. */
  base_url: string;
  /** Deprecated: `false` means `oktapreview.com` when `base_url` is empty. */
  production?: boolean;
  bypass_okta_mfa: boolean;
  token: TokenParams;
}

/** `users/:name` (policies and local groups) and `groups/:name` (policies). */
export interface OktaMapping {
  policies: string[];
  /** Users only. */
  groups?: string[];
}

export type MappingKind = 'users' | 'groups';
// The established storage keys: `user/<name>`, `group/<name>`.
const prefix = (kind: MappingKind) => (kind === 'users' ? 'user/' : 'group/');

export const oktaStore = {
  config: (s: Storage) => getJson<OktaConfig>(s, 'config'),
  putConfig: (s: Storage, c: OktaConfig) => putJson(s, 'config', c),
  mapping: (s: Storage, kind: MappingKind, name: string) => getJson<OktaMapping>(s, `${prefix(kind)}${name}`),
  putMapping: (s: Storage, kind: MappingKind, name: string, m: OktaMapping) => putJson(s, `${prefix(kind)}${name}`, m),
  deleteMapping: (s: Storage, kind: MappingKind, name: string) => s.delete(`${prefix(kind)}${name}`),
  mappings: (s: Storage, kind: MappingKind) => s.list(prefix(kind)),
};

/** `https://<org_name>.<base_url>`: the organization's Okta address. */
export function orgUrl(c: OktaConfig): string {
  const domain = c.base_url || (c.production === false ? 'oktapreview.com' : 'okta.com');
  return `https://${c.org_name}.${domain}`;
}
