import { mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWard, type WardProcess } from './ward-process.js';

/** A `ward server` with `workers = N` on one SQLite file, initialised with one key share and unsealed. */
export interface WorkersWard {
  ward: WardProcess;
  /** The listener all workers share. */
  url: string;
  rootToken: string;
  /** The one unseal key share; with an auto seal (`options.seal`), the one recovery key share. */
  unsealKey: string;
  /** Worker `id`'s own API socket (`<db>.workers/worker-<id>.sock`). */
  socketOf(id: number): string;
  /** Worker `id`'s process id now (a restarted worker has a new one). */
  pidOf(id: number): number;
  /** Waits until worker `id` runs with a process id other than `previous`, and serves unsealed. */
  restarted(id: number, previous: number): Promise<void>;
  /** The worker holding the lock (asked through each worker's socket). */
  active(): Promise<number>;
  /** Waits until worker `id` serves unsealed (as active or performance standby). */
  unsealed(id: number, timeoutMs?: number): Promise<void>;
  /**
   * Stops the server with SIGTERM (it must exit 0) and starts it again from `dir/ward.hcl`; resolves
   * once every worker listens (sealed, unless an auto seal unseals it). `ward` and `url` follow.
   */
  restart(): Promise<void>;
}

export interface WorkerAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | undefined;
  /** The body as sent (Prometheus text, say). */
  text: string;
}

/** One request to one worker, through its own socket. */
export function workerRequest(
  socketPath: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<WorkerAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        socketPath,
        method,
        path: `/v1/${path}`,
        headers: {
          ...(options.token ? { 'X-Vault-Token': options.token } : {}),
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => {
          const isJson = res.headers['content-type']?.startsWith('application/json') === true && text !== '';
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: isJson ? JSON.parse(text) : undefined,
            text,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Polls `check` every 25 ms until it holds (up to `timeoutMs`). */
export async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(25);
  }
}

/**
 * Starts `ward server` with `workers = count` on a SQLite file in `dir` (its configuration is
 * `dir/ward.hcl`), initialises it through worker 1, unseals it with the one key through another
 * worker, and waits until every worker serves unsealed (one active, the others performance
 * standbys). With `options.seal` (a `seal` stanza) the server unseals itself, and the one key is a
 * recovery key.
 */
export async function startWorkersWard(
  dir: string,
  count: number,
  options: { seal?: string } = {},
): Promise<WorkersWard> {
  await mkdir(dir, { recursive: true });
  const databasePath = join(dir, 'ward.db');
  const config = join(dir, 'ward.hcl');
  await writeFile(
    config,
    `storage "sqlite" {\n  path = "${databasePath}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n` +
      `telemetry {\n  prometheus_retention_time = "1h"\n  disable_hostname = true\n}\nworkers = ${count}\n${options.seal ?? ''}`,
  );
  let ward = startWard(['server', `-config=${config}`]);
  const socketOf = (id: number) => join(`${databasePath}.workers`, `worker-${id}.sock`);
  const pidOf = (id: number) => {
    const starts = [...ward.output().matchAll(new RegExp(`worker process started: worker=${id} pid=(\\d+)`, 'g'))];
    return Number(starts.at(-1)?.[1]);
  };
  const isUnsealed = async (id: number) =>
    (await workerRequest(socketOf(id), 'GET', 'sys/health?standbyok=true&perfstandbyok=true')).status === 200;
  // Each worker loads the whole server: on a busy machine that takes a while.
  const listening = async () => {
    for (let id = 1; id <= count; id++) await ward.waitFor(new RegExp(`listening: worker=${id} url=unix://`), 90_000);
    const [, url = ''] = await ward.waitFor(/listening: worker=\d+ url=(http:\/\/\S+)/);
    return url;
  };
  try {
    let url = await listening();
    const init = await workerRequest(socketOf(1), 'PUT', 'sys/init', {
      body: options.seal ? { recovery_shares: 1, recovery_threshold: 1 } : { secret_shares: 1, secret_threshold: 1 },
    });
    const initBody = init.body as { keys_base64: string[]; recovery_keys_base64: string[]; root_token: string };
    const [key] = options.seal ? initBody.recovery_keys_base64 : initBody.keys_base64;
    if (!options.seal) await workerRequest(socketOf(2 % count || count), 'PUT', 'sys/unseal', { body: { key } });
    for (let id = 1; id <= count; id++) await eventually(() => isUnsealed(id), `worker ${id} is unsealed`);
    const active = async () => {
      for (let id = 1; id <= count; id++) {
        // A worker killed a moment ago has no socket until it is started again.
        const health = await workerRequest(socketOf(id), 'GET', 'sys/health').catch(() => undefined);
        if (health?.status === 200) return id;
      }
      throw new Error('no worker is active');
    };
    await eventually(async () => (await active()) > 0, 'a worker is active');
    return {
      get ward() {
        return ward;
      },
      get url() {
        return url;
      },
      rootToken: initBody.root_token,
      unsealKey: key as string,
      socketOf,
      pidOf,
      active,
      async restarted(id, previous) {
        await eventually(
          async () => pidOf(id) !== previous && (await isUnsealed(id)),
          `worker ${id} restarted`,
          90_000,
        );
      },
      unsealed: (id, timeoutMs = 30_000) => eventually(() => isUnsealed(id), `worker ${id} is unsealed`, timeoutMs),
      async restart() {
        ward.child.kill('SIGTERM');
        const code = await ward.exited;
        if (code !== 0) throw new Error(`ward exited with ${code}:\n${ward.output()}`);
        ward = startWard(['server', `-config=${config}`]);
        url = await listening();
      },
    };
  } catch (err) {
    ward.child.kill('SIGKILL');
    throw err;
  }
}
