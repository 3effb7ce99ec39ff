import type { Readable } from 'node:stream';
import type { Clock } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';
import { rfc3339Nano } from '../logical/time.js';
import { readSnapshotArchive, type StorageBackend, type SumsSeal, writeSnapshotArchive } from '../storage/index.js';
import type { AesGcmBarrier } from './barrier/index.js';

/** Whole-store snapshots (`sys/storage/raft/snapshot*`, and the automated ones). */
export interface SnapshotControls {
  /** A gzip tar of every entry as of now, still encrypted, with sealed checksums. */
  save(): Promise<Readable>;
  /**
   * Replaces the whole store with an uploaded snapshot, after checking it (400 when it is damaged,
   * or, unless `force`, made under another keyring), then reloads everything cached from storage.
   */
  restore(body: AsyncIterable<Uint8Array>, options: { force: boolean }): Promise<void>;
}

export interface SnapshotDeps {
  physical: StorageBackend;
  barrier: Pick<AesGcmBarrier, 'sealDetached' | 'openDetached' | 'keyStatus'>;
  clock: Clock;
  /** Stops everything cached from storage, runs `replace`, and loads it all again (the core's lifecycle). */
  reload(replace: () => Promise<void>): Promise<void>;
}

/** The label the sealed checksums are encrypted under: no stored entry has it. */
const SEALED_SUMS_LABEL = 'core/snapshot/SHA256SUMS';

export function createSnapshotControls(deps: SnapshotDeps): SnapshotControls {
  const sums: SumsSeal = {
    seal: (text) => deps.barrier.sealDetached(SEALED_SUMS_LABEL, text),
    open: (sealed) => deps.barrier.openDetached(SEALED_SUMS_LABEL, sealed),
  };
  let isRestoring = false;
  return {
    async save() {
      const snapshot = await deps.physical.openSnapshot();
      const info = { createdAt: rfc3339Nano(deps.clock.now()), keyTerm: deps.barrier.keyStatus().term };
      return writeSnapshotArchive(snapshot, info, sums);
    },
    async restore(body, { force }) {
      if (isRestoring) throw new InvalidRequestError('a snapshot restore is already in progress');
      isRestoring = true;
      try {
        const verified = await readSnapshotArchive(body, force ? undefined : sums);
        try {
          await deps.reload(() => deps.physical.replaceAll(verified.entries()));
        } finally {
          await verified.dispose();
        }
      } finally {
        isRestoring = false;
      }
    },
  };
}
