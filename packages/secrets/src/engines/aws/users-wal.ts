import type { Clock, Logger } from '@ward/base';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import { awsEngineStore } from './aws-engine-store.js';
import { deleteIamUser } from './iam-user.js';

/**
 * An IAM user being created, recorded before IAM is asked: until the lease that will delete it
 * is stored, this record is the only trace of the user. One that outlives its request (a crash,
 * a failed lease registration) is found by the sweep, which deletes the user.
 */
export interface UserWal {
  /** The backend instance whose request wrote it. */
  instance: string;
  created_ms: number;
  username: string;
}

const PREFIX = 'wal/user/';

/** A record of another instance is a crash's; one of this instance, a request that took this long. */
export const STALE_WAL_MS = 10 * 60_000;
/** How often records are looked at. */
export const WAL_SWEEP_INTERVAL_MS = 10_000;

export const usersWal = {
  get: (storage: Storage, id: string) => getJson<UserWal>(storage, PREFIX + id),
  put: (storage: Storage, id: string, wal: UserWal) => putJson(storage, PREFIX + id, wal),
  delete: (storage: Storage, id: string) => storage.delete(PREFIX + id),
  list: (storage: Storage) => storage.list(PREFIX),
};

export interface SweepDeps {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  instanceId: string;
}

/** Deletes the users of records left behind; a failure is logged and the record kept for the next pass. */
export async function sweepUsersWal(d: SweepDeps): Promise<void> {
  for (const id of await usersWal.list(d.storage)) {
    const wal = await usersWal.get(d.storage, id);
    if (!wal) continue;
    const isStale = wal.instance !== d.instanceId || d.clock.now() - wal.created_ms >= STALE_WAL_MS;
    if (!isStale) continue;
    try {
      await deleteIamUser(await awsEngineStore.root(d.storage), wal.username);
      await usersWal.delete(d.storage, id);
      d.logger.info('deleted an IAM user left by an unfinished request', { username: wal.username });
    } catch (err) {
      d.logger.warn('deleting an IAM user left by an unfinished request failed', {
        username: wal.username,
        error: (err as Error).message,
      });
    }
  }
}
