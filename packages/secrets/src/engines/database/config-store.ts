import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** One database connection (`config/:name`). Field names keep the API's spelling. */
export interface DatabaseConfig {
  plugin_name: string;
  plugin_version: string;
  verify_connection: boolean;
  allowed_roles: string[];
  root_rotation_statements: string[];
  password_policy: string;
  connection_url: string;
  username: string;
  password: string;
  max_open_connections: number;
  max_idle_connections: number;
  max_connection_lifetime: number;
  username_template: string;
  disable_escaping: boolean;
  /**
   * The password `rotate-root` is setting, saved before the database changes: connections try it
   * after `password`, so a crash between the change and the save loses neither.
   */
  pending_password: string;
  /** The default of static roles' `skip_import_rotation` (absent in records written before it). */
  skip_static_role_import_rotation?: boolean;
  /**
   * Rootless: no root user; static roles' users change their own passwords, each connecting
   * with its current one (PostgreSQL only). Absent in records written before it.
   */
  self_managed?: boolean;
}

const PREFIX = 'config/';

export const configs = {
  get: (storage: Storage, name: string) => getJson<DatabaseConfig>(storage, PREFIX + name),
  put: (storage: Storage, name: string, config: DatabaseConfig) => putJson(storage, PREFIX + name, config),
  delete: (storage: Storage, name: string) => storage.delete(PREFIX + name),
  list: (storage: Storage) => storage.list(PREFIX),
};
