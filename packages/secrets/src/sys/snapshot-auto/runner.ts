/** Automated snapshots: configs, the schedule on the core's scheduler, retention and status. @module */
import type { Readable } from 'node:stream';
import type { Clock, Logger } from '@ward/base';
import { getJson, putJson, type Storage } from '../../logical/storage.js';
import type { SnapshotTarget } from '../snapshot-targets/snapshot-target.js';
import { targetForConfig } from '../snapshot-targets/target-for-config.js';
import type { SnapshotConfig } from './config.js';

export const CONFIG_PREFIX = 'snapshot-auto/config/';
export const STATUS_PREFIX = 'snapshot-auto/status/';

/** `status/:name` as stored: the wire fields, plus when the last attempt started (for the schedule). */
export interface SnapshotStatus {
  last_snapshot_start: string;
  last_snapshot_end: string;
  last_snapshot_error: string;
  last_snapshot_url: string;
  snapshot_start: string;
  snapshot_url: string;
  /** Start of the last attempt; the next is due `interval` seconds later. Not shown. */
  last_attempt_ms?: number;
}

export const EMPTY_STATUS: SnapshotStatus = {
  last_snapshot_start: '',
  last_snapshot_end: '',
  last_snapshot_error: '',
  last_snapshot_url: '',
  snapshot_start: '',
  snapshot_url: '',
};

export interface RunnerDeps {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /** A gzip tar of the whole store as of now (the core's snapshot). */
  save(): Promise<Readable>;
  /** The target a config writes to; by default the one its `storage_type` names. */
  targetFor?(config: SnapshotConfig): SnapshotTarget;
}

/** How often due configs are looked for: the finest `interval` a config can have. */
export const CHECK_INTERVAL_MS = 1_000;

/** Takes a snapshot for every config whose `interval` has passed since its last attempt. */
export async function runDueSnapshots(deps: RunnerDeps): Promise<void> {
  for (const name of await deps.storage.list(CONFIG_PREFIX)) {
    const config = await getJson<SnapshotConfig>(deps.storage, `${CONFIG_PREFIX}${name}`);
    if (!config) continue;
    const status = (await getJson<SnapshotStatus>(deps.storage, `${STATUS_PREFIX}${name}`)) ?? { ...EMPTY_STATUS };
    const now = deps.clock.now();
    if (status.last_attempt_ms !== undefined && now < status.last_attempt_ms + config.interval * 1000) continue;
    await putJson(deps.storage, `${STATUS_PREFIX}${name}`, await takeSnapshot(deps, config, status, now));
  }
}

async function takeSnapshot(deps: RunnerDeps, config: SnapshotConfig, status: SnapshotStatus, startMs: number) {
  const start = rfc3339Seconds(startMs);
  const next: SnapshotStatus = { ...status, last_attempt_ms: startMs, last_snapshot_start: start };
  let target: SnapshotTarget | undefined;
  try {
    target = (deps.targetFor ?? targetForConfig)(config);
    // Nanoseconds, 19 digits: name order is age order, which retention relies on.
    const name = `${config.file_prefix}-${BigInt(startMs) * 1_000_000n}.snap`;
    const stored = await target.put(name, await deps.save());
    await applyRetention(target, config, name, stored.size);
    Object.assign(next, {
      last_snapshot_error: '',
      last_snapshot_url: stored.url,
      snapshot_start: start,
      snapshot_url: stored.url,
    });
  } catch (err) {
    next.last_snapshot_error = (err as Error).message || String(err);
    deps.logger.warn('automated snapshot failed', {
      storage_type: config.storage_type,
      error: next.last_snapshot_error,
    });
  } finally {
    target?.close?.();
  }
  next.last_snapshot_end = rfc3339Seconds(deps.clock.now());
  return next;
}

/**
 * Keeps the `retain` newest snapshots this config made. For `local`, the new one plus those kept
 * must fit in `local_max_space`; when they do not, the new one is removed and the attempt fails.
 */
async function applyRetention(target: SnapshotTarget, config: SnapshotConfig, newName: string, newSize: number) {
  const pattern = new RegExp(`^${escapeRegExp(config.file_prefix)}-\\d{19}\\.snap$`);
  const older = (await target.list(`${config.file_prefix}-`)).filter((o) => pattern.test(o.name) && o.name !== newName);
  const kept = older.slice(Math.max(0, older.length - (config.retain - 1)));
  const dropped = older.slice(0, older.length - kept.length);
  if (config.local_max_space !== undefined) {
    const total = kept.reduce((sum, o) => sum + o.size, newSize);
    if (total > config.local_max_space) {
      await target.delete(newName);
      throw new Error(
        `snapshot of ${newSize} bytes would bring this config's snapshots to ${total} bytes, over local_max_space (${config.local_max_space})`,
      );
    }
  }
  for (const o of dropped) await target.delete(o.name);
}

/** RFC 3339 in UTC, whole seconds. */
export function rfc3339Seconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
