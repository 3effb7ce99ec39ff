import type { SnapshotControls } from '../core/system-core.js';
import { definePath, type PathDefinition } from '../framework/index.js';
import { InvalidRequestError } from '../logical/errors.js';
import type { BackendRequest } from '../logical/request.js';

/** Both act on the whole store, so both need `sudo`. */
export const SNAPSHOT_ROOT_PATHS = ['storage/raft/snapshot', 'storage/raft/snapshot-force'];

/** `sys/storage/raft/snapshot` (save, restore) and `snapshot-force` (restore under another keyring). */
export function pathSnapshot(snapshots: SnapshotControls): PathDefinition[] {
  return [
    definePath({
      pattern: 'storage/raft/snapshot',
      fields: {},
      operations: {
        read: {
          summary: 'Download a snapshot of the whole store (gzip tar; values stay encrypted).',
          handler: async () => ({
            raw: { status: 200, body: null, contentType: 'application/gzip', stream: await snapshots.save() },
          }),
        },
        update: {
          summary: 'Restore the store from a snapshot taken under this keyring (the body is the snapshot).',
          handler: async ({ req }) => restore(snapshots, req, false),
        },
      },
      help: {
        synopsis: 'Save or restore a snapshot of the whole store.',
        description:
          'A restore replaces every entry and reloads policies, mounts, tokens and leases. A snapshot made under other unseal keys is refused with 400; use snapshot-force for it.',
      },
    }),
    definePath({
      pattern: 'storage/raft/snapshot-force',
      fields: {},
      operations: {
        update: {
          summary: 'Restore a snapshot without checking that it was taken under this keyring.',
          handler: async ({ req }) => restore(snapshots, req, true),
        },
      },
      help: {
        synopsis: 'Restore a snapshot from another server.',
        description:
          'The checksums are still verified. When the snapshot carries another keyring the server seals and needs that snapshot’s unseal keys.',
      },
    }),
  ];
}

async function restore(snapshots: SnapshotControls, req: BackendRequest, force: boolean) {
  if (!req.rawBody) throw new InvalidRequestError('the request body must be a snapshot');
  await snapshots.restore(req.rawBody, { force });
  return undefined;
}
