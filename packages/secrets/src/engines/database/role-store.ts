import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { CredentialType } from './credential-config.js';

/** A dynamic role (`roles/:name`); TTLs in seconds, 0 meaning the mount's. */
export interface DynamicRole {
  db_name: string;
  default_ttl: number;
  max_ttl: number;
  creation_statements: string[];
  revocation_statements: string[];
  rollback_statements: string[];
  renew_statements: string[];
  credential_type: CredentialType;
  /** Checked for the type, with its defaults filled in (`credential-config.ts`). */
  credential_config: Record<string, string>;
}

/** A static role (`static-roles/:name`): an existing user whose password the engine rotates. */
export interface StaticRole {
  db_name: string;
  username: string;
  /** Seconds between rotations; 0 when `rotation_schedule` decides. */
  rotation_period: number;
  rotation_schedule: string;
  /** Seconds after a scheduled time in which a rotation may still happen; 0: no limit. */
  rotation_window: number;
  rotation_statements: string[];
  credential_type: 'password';
  password: string;
  /** Unix ms of the last rotation by the engine; 0 before the first. */
  last_rotation_ms: number;
  next_rotation_ms: number;
  /**
   * With a `rotation_window`: the end of the window of the scheduled time `next_rotation_ms` was
   * set for (a retry moves `next_rotation_ms`, not this). Past it, a missed rotation waits for the
   * next scheduled time. 0: no window.
   */
  rotation_window_end_ms?: number;
  /** The user changes its own password, connecting with its current one (a self-managed connection). */
  self_managed?: boolean;
  /** Failed rotations in a row (each retried with backoff). */
  failures: number;
  last_rotation_error: string;
}

/** A rotation under way: the password given to the database, saved before it changes. */
export interface StaticWal {
  password: string;
}

export const dynamicRoles = {
  get: (storage: Storage, name: string) => getJson<DynamicRole>(storage, `role/${name}`),
  put: (storage: Storage, name: string, role: DynamicRole) => putJson(storage, `role/${name}`, role),
  delete: (storage: Storage, name: string) => storage.delete(`role/${name}`),
  list: (storage: Storage) => storage.list('role/'),
};

export const staticRoles = {
  get: (storage: Storage, name: string) => getJson<StaticRole>(storage, `static-role/${name}`),
  put: (storage: Storage, name: string, role: StaticRole) => putJson(storage, `static-role/${name}`, role),
  delete: async (storage: Storage, name: string) => {
    await storage.delete(`static-role/${name}`);
    await storage.delete(`static-wal/${name}`);
  },
  list: (storage: Storage) => storage.list('static-role/'),
  getWal: (storage: Storage, name: string) => getJson<StaticWal>(storage, `static-wal/${name}`),
  putWal: (storage: Storage, name: string, wal: StaticWal) => putJson(storage, `static-wal/${name}`, wal),
  deleteWal: (storage: Storage, name: string) => storage.delete(`static-wal/${name}`),
};
