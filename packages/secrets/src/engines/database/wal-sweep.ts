import { credsWal, STALE_WAL_MS } from './creds-wal.js';
import type { DatabaseDeps } from './deps.js';
import { dropUser } from './drop-user.js';

/** How often write-ahead records are looked at (the first pass runs this long after the mount starts). */
export const WAL_SWEEP_INTERVAL_MS = 10_000;

/**
 * Drops the users of write-ahead records left behind: by another instance of the backend (a
 * crash or restart between CREATE and the lease record) or older than any request takes.
 * A failure is logged and the record kept for the next pass.
 */
export async function sweepCredsWal(d: DatabaseDeps): Promise<void> {
  for (const id of await credsWal.list(d.storage)) {
    const wal = await credsWal.get(d.storage, id);
    if (!wal) continue;
    const isStale = wal.instance !== d.instanceId || d.clock.now() - wal.created_ms >= STALE_WAL_MS;
    if (!isStale) continue;
    try {
      await dropUser(d, d.storage, wal);
      await credsWal.delete(d.storage, id);
      d.logger.info('dropped a database user left by an unfinished request', { username: wal.username });
    } catch (err) {
      d.logger.warn('dropping a database user left by an unfinished request failed', {
        username: wal.username,
        error: (err as Error).message,
      });
    }
  }
}
