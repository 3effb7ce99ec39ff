import { getJson, putJson, type Storage } from '../../logical/storage.js';

/**
 * A user being created, recorded before the database is asked: until the lease that will end
 * it is stored, this record is the only trace of the user. What outlives its request (a crash,
 * a failed lease registration) is found by the sweep, which drops the user.
 */
export interface CredsWal {
  /** The backend instance whose request wrote it. */
  instance: string;
  created_ms: number;
  db_name: string;
  username: string;
  revocation_statements: string[];
}

const PREFIX = 'wal/creds/';

/** A record of another instance is a crash's; one of this instance, a request that took this long. */
export const STALE_WAL_MS = 10 * 60_000;

export const credsWal = {
  get: (storage: Storage, id: string) => getJson<CredsWal>(storage, PREFIX + id),
  put: (storage: Storage, id: string, wal: CredsWal) => putJson(storage, PREFIX + id, wal),
  delete: (storage: Storage, id: string) => storage.delete(PREFIX + id),
  list: (storage: Storage) => storage.list(PREFIX),
};
