import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { defineCommand } from '../command.js';

/**
 * `ward operator raft snapshot save FILE`: streams the server's snapshot to FILE. It is written
 * beside FILE first and renamed once complete, so a failed download never leaves a partial FILE.
 */
export const operatorRaftSnapshotSaveCommand = defineCommand({
  name: 'operator raft snapshot save',
  summary: 'Save a snapshot of the whole store to a file (needs sudo on sys/storage/raft/snapshot).',
  usage: 'FILE',
  example: 'ward operator raft snapshot save ward.snap',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [file = ''] }, { client }) {
    const partial = `${file}.partial`;
    const snapshot = await client.sys.snapshot.save();
    try {
      await pipeline(
        Readable.fromWeb(snapshot as import('node:stream/web').ReadableStream),
        createWriteStream(partial, { mode: 0o600 }),
      );
      await rename(partial, file);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    return undefined;
  },
});
