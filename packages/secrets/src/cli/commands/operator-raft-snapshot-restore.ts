import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { defineCommand, flag } from '../command.js';

/** `ward operator raft snapshot restore [-force] FILE`: replaces the whole store with a saved snapshot. */
export const operatorRaftSnapshotRestoreCommand = defineCommand({
  name: 'operator raft snapshot restore',
  summary: 'Replace the whole store with a snapshot file (needs sudo on sys/storage/raft/snapshot).',
  usage: '[-force] FILE',
  example: 'ward operator raft snapshot restore ward.snap',
  flags: {
    force: flag.bool(
      'Accept a snapshot made under other unseal keys; the server then seals and needs the snapshot’s keys.',
    ),
  },
  args: { min: 1, max: 1 },
  async run({ flags, args: [file = ''] }, { client }) {
    await access(file);
    const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
    await client.sys.snapshot.restore(body, { force: flags.force });
    return undefined;
  },
});
