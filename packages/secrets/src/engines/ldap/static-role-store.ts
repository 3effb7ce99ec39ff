import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { listAllNames } from './role-name.js';

/** A static role, under `static-role/<name>`. Field names keep the API's spelling. */
export interface StaticRole {
  /** Entry whose password is managed; empty: found by `username` under the config's `userdn`. */
  dn: string;
  username: string;
  rotation_period: number;
  /** Current password ('' until the first rotation of a role created with `skip_import_rotation`). */
  password: string;
  last_password: string;
  /** Unix ms of the last successful rotation, 0 before the first. */
  last_rotation_ms: number;
  /** Unix ms the next rotation is due: the persistent schedule, read again after every restart. */
  next_rotation_ms: number;
  /** Failed attempts since the last success (backoff grows with it). */
  failures: number;
  /** Message of the last failed attempt, '' after a success. Never holds a password. */
  last_rotation_error: string;
}

/**
 * Write-ahead record of a rotation under way, under `static-wal/<name>`: saved before the
 * directory is changed and removed once the role holds the new password, so a crash between
 * the two leaves the new password here instead of losing it.
 */
export interface RotationWal {
  password: string;
  /** The password settings it was generated with; a different policy discards it. */
  generator: string;
}

const ROLE = 'static-role/';
const WAL = 'static-wal/';

export const staticRoles = {
  get: (s: Storage, name: string) => getJson<StaticRole>(s, ROLE + name),
  put: (s: Storage, name: string, role: StaticRole) => putJson(s, ROLE + name, role),
  delete: (s: Storage, name: string) => s.delete(ROLE + name),
  /** One level: names and folders (`team/`) under `prefix` ('' for the top). */
  list: (s: Storage, prefix = '') => s.list(ROLE + prefix),
  /** Every role's full name (`org/team/name`), at any depth. */
  listAll: (s: Storage) => listAllNames((prefix) => s.list(ROLE + prefix)),
  getWal: (s: Storage, name: string) => getJson<RotationWal>(s, WAL + name),
  putWal: (s: Storage, name: string, wal: RotationWal) => putJson(s, WAL + name, wal),
  deleteWal: (s: Storage, name: string) => s.delete(WAL + name),
};
