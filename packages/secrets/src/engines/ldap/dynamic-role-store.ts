import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** A dynamic role, under `role/<name>`; LDIF kept decoded. Field names keep the API's spelling. */
export interface DynamicRole {
  creation_ldif: string;
  deletion_ldif: string;
  rollback_ldif: string;
  /** '' means the default template. */
  username_template: string;
  default_ttl: number;
  max_ttl: number;
}

const PREFIX = 'role/';

export const dynamicRoles = {
  get: (s: Storage, name: string) => getJson<DynamicRole>(s, PREFIX + name),
  put: (s: Storage, name: string, role: DynamicRole) => putJson(s, PREFIX + name, role),
  delete: (s: Storage, name: string) => s.delete(PREFIX + name),
  /** One level: names and folders (`team/`) under `prefix` ('' for the top). */
  list: (s: Storage, prefix = '') => s.list(PREFIX + prefix),
};

/** The username template when a role names none (spec 001, Templates 7). */
export const DEFAULT_USERNAME_TEMPLATE = 'v_{{.DisplayName}}_{{.RoleName}}_{{random 10}}_{{unix_time}}';
