import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Client } from '@ward/secrets-client';
import { create as createTar } from 'tar';

/** What `ward debug` can collect, as the established `-target` names them. */
export const DEBUG_TARGETS = ['config', 'host', 'metrics', 'pprof', 'replication-status', 'server-status', 'log'];

/** Targets the established bundle has that Ward has nothing to collect for, and why. */
const ABSENT_TARGETS: ReadonlyMap<string, string> = new Map([
  ['pprof', 'Ward is not a Go program: there are no pprof profiles'],
  ['replication-status', 'Ward has no replication'],
]);

export interface DebugPlan {
  client: Client;
  clientVersion: string;
  durationMs: number;
  intervalMs: number;
  metricsIntervalMs: number;
  targets: string[];
  /** The `.tar.gz` to write; its name without the extension is the bundle's directory inside it. */
  output: string;
  rawArgs: string[];
  logFormat: 'standard' | 'json';
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

interface Collected {
  errors: { target: string; timestamp: string; error: string }[];
  serverStatus: unknown[];
  metrics: unknown[];
}

/**
 * Collects the established debug bundle: `index.json`, `server_status.json` (health, seal and HA
 * status every interval), `metrics.json` (every metrics interval), `host_info.json`, `config.json`
 * and `vault.log` (the server log for the whole duration), then packs it into `output`.
 */
export async function collectDebugBundle(plan: DebugPlan): Promise<{ output: string; errors: Collected['errors'] }> {
  const name = basename(plan.output).replace(/\.tar\.gz$|\.tgz$/, '');
  const work = await mkdtemp(join(tmpdir(), 'ward-debug-'));
  const dir = join(work, name);
  await mkdir(dir, { mode: 0o700 });
  const stamp = () => new Date(plan.now()).toISOString();
  const c: Collected = { errors: [], serverStatus: [], metrics: [] };
  const attempt = async <T>(target: string, f: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await f();
    } catch (err) {
      c.errors.push({ target, timestamp: stamp(), error: (err as Error).message });
      return undefined;
    }
  };
  const has = (t: string) => plan.targets.includes(t);
  for (const [target, why] of ABSENT_TARGETS)
    if (has(target)) c.errors.push({ target, timestamp: stamp(), error: why });
  try {
    const started = stamp();
    const log = has('log') ? await attempt('log', () => captureLog(plan, join(dir, 'vault.log'))) : undefined;
    if (has('host'))
      await snapshotOnce(attempt, 'host', () => plan.client.read('sys/host-info'), dir, 'host_info.json');
    if (has('config')) {
      await snapshotOnce(attempt, 'config', () => plan.client.read('sys/config/state/sanitized'), dir, 'config.json');
    }
    const end = plan.now() + plan.durationMs;
    const statusLoop = has('server-status')
      ? every(plan, end, plan.intervalMs, async () => {
          const entry: Record<string, unknown> = { timestamp: stamp() };
          entry.health = await attempt('server-status', () => plan.client.read('sys/health'));
          entry.seal = await attempt('server-status', () => plan.client.read('sys/seal-status'));
          entry.ha = await attempt('server-status', () => plan.client.read('sys/ha-status'));
          c.serverStatus.push(entry);
        })
      : Promise.resolve();
    const metricsLoop = has('metrics')
      ? every(plan, end, plan.metricsIntervalMs, async () => {
          const m = await attempt('metrics', () => plan.client.read('sys/metrics'));
          if (m) c.metrics.push(m);
        })
      : Promise.resolve();
    await Promise.all([statusLoop, metricsLoop]);
    await log?.stop();
    if (has('server-status')) await writeJson(join(dir, 'server_status.json'), c.serverStatus);
    if (has('metrics')) await writeJson(join(dir, 'metrics.json'), c.metrics);
    const health = c.serverStatus[0] as { health?: { version?: string } } | undefined;
    await writeJson(join(dir, 'index.json'), {
      version: 1,
      vault_address: plan.client.address,
      client_version: plan.clientVersion,
      server_version: health?.health?.version ?? '',
      timestamp: started,
      duration_seconds: plan.durationMs / 1000,
      interval_seconds: plan.intervalMs / 1000,
      metrics_interval_seconds: plan.metricsIntervalMs / 1000,
      compress: true,
      raw_args: plan.rawArgs,
      targets: plan.targets,
      output: plan.output,
      errors: c.errors,
    });
    const output = resolve(plan.output);
    await mkdir(dirname(output), { recursive: true });
    await createTar({ gzip: true, file: output, cwd: work, portable: true }, [name]);
    return { output, errors: c.errors };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

type Attempt = <T>(target: string, f: () => Promise<T>) => Promise<T | undefined>;

async function snapshotOnce(attempt: Attempt, target: string, f: () => Promise<unknown>, dir: string, file: string) {
  const value = await attempt(target, f);
  if (value !== undefined && value !== null) await writeJson(join(dir, file), value);
  else if (value === null) await attempt(target, async () => Promise.reject(new Error('the server has nothing there')));
}

/** Runs `f` now and every `intervalMs` until `end` (the last run no later than `end`). */
async function every(plan: DebugPlan, end: number, intervalMs: number, f: () => Promise<void>): Promise<void> {
  for (;;) {
    await f();
    const wait = Math.min(intervalMs, end - plan.now());
    if (wait <= 0) return;
    await plan.sleep(wait);
    if (wait < intervalMs) return;
  }
}

/** Streams `sys/monitor` into `file` until `stop()`. */
async function captureLog(plan: DebugPlan, file: string): Promise<{ stop(): Promise<void> }> {
  const stream = await plan.client.sys.monitor({ logLevel: 'debug', logFormat: plan.logFormat });
  const reader = stream.getReader();
  const out = createWriteStream(file, { mode: 0o600 });
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        out.write(value);
      }
    } catch {
      // The stream was cancelled at the end of the capture (or the server went away): keep what came.
    }
  })();
  return {
    async stop() {
      await reader.cancel().catch(() => {});
      await pump;
      await new Promise<void>((done) => out.end(done));
    },
  };
}

function writeJson(path: string, value: unknown): Promise<void> {
  return writeFile(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}
