import type { Clock, Logger } from '@ward/base';
import type { SnapshotControls } from '../core/system-core.js';
import { definePath, field, type PathDefinition, type PeriodicTask } from '../framework/index.js';
import { getJson, putJson, type Storage } from '../logical/storage.js';
import { buildConfig, configFields, configView, type SnapshotConfig } from './snapshot-auto/config.js';
import {
  CHECK_INTERVAL_MS,
  CONFIG_PREFIX,
  EMPTY_STATUS,
  runDueSnapshots,
  type SnapshotStatus,
  STATUS_PREFIX,
} from './snapshot-auto/runner.js';
import { checkTargetConfig } from './snapshot-targets/target-for-config.js';

/** Every config operation needs `sudo`, as established. */
export const SNAPSHOT_AUTO_ROOT_PATHS = ['storage/raft/snapshot-auto/config', 'storage/raft/snapshot-auto/config/*'];

export interface SnapshotAutoDeps {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  snapshots: SnapshotControls;
}

/** `sys/storage/raft/snapshot-auto/config[/:name]` and `status/:name`. */
export function pathSnapshotAuto(): PathDefinition[] {
  const name = field.path({ description: 'Name of the automated snapshot configuration.' });
  return [
    definePath({
      pattern: 'storage/raft/snapshot-auto/config/',
      fields: {},
      operations: {
        list: {
          summary: 'List the automated snapshot configurations.',
          handler: async ({ storage }) => ({ data: { keys: await storage.list(CONFIG_PREFIX) } }),
        },
      },
      help: { synopsis: 'List automated snapshot configurations.', description: 'Names of the stored configurations.' },
    }),
    definePath({
      pattern: 'storage/raft/snapshot-auto/config/:name',
      fields: { name, ...configFields },
      operations: {
        read: {
          summary: 'Read an automated snapshot configuration (secrets are not returned).',
          handler: async ({ storage, data }) => {
            const config = await getJson<SnapshotConfig>(storage, `${CONFIG_PREFIX}${data.name}`);
            return config && { data: configView(config) };
          },
        },
        update: {
          summary: 'Create or replace an automated snapshot configuration.',
          handler: async ({ storage, data, supplied }) => {
            const config = buildConfig(data as Record<string, unknown>, supplied);
            checkTargetConfig(config);
            await putJson(storage, `${CONFIG_PREFIX}${data.name}`, config);
            return undefined;
          },
        },
        delete: {
          summary: 'Delete an automated snapshot configuration; snapshots already taken stay.',
          handler: async ({ storage, data }) => {
            await storage.delete(`${CONFIG_PREFIX}${data.name}`);
            await storage.delete(`${STATUS_PREFIX}${data.name}`);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Automated snapshot configuration.',
        description:
          'Takes a snapshot every `interval` to `local`, S3, Azure Blob or GCS and keeps the `retain` newest.',
      },
    }),
    definePath({
      pattern: 'storage/raft/snapshot-auto/status/:name',
      fields: { name },
      operations: {
        read: {
          summary: 'Read the outcome of a configuration’s last snapshot.',
          handler: async ({ storage, data }) => {
            if (!(await getJson<SnapshotConfig>(storage, `${CONFIG_PREFIX}${data.name}`))) return undefined;
            const { last_attempt_ms: _, ...status } =
              (await getJson<SnapshotStatus>(storage, `${STATUS_PREFIX}${data.name}`)) ?? EMPTY_STATUS;
            return { data: status };
          },
        },
      },
      help: {
        synopsis: 'Automated snapshot status.',
        description: 'Times are RFC 3339; the error is empty after a success.',
      },
    }),
  ];
}

/** Runs the due configurations on the core's scheduler (root `sys/` only, on the active server). */
export function snapshotAutoTask(deps: SnapshotAutoDeps): PeriodicTask {
  return {
    name: 'snapshot-auto',
    intervalMs: CHECK_INTERVAL_MS,
    run: () => runDueSnapshots({ ...deps, save: () => deps.snapshots.save() }),
  };
}
