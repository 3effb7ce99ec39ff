import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { best, DURATION_S, type Figures, measure, ROUNDS, type Running, startWardWithConfig } from './bench-support.js';
import { runWrk } from './wrk.js';

/**
 * Issue 36: KV v2 reads per second with `workers = 1` beside `workers = 2` (wrk at saturation on the
 * shared listener, p99 beside it), and KV v2 writes sent to a standby worker (forwarded over its
 * Unix socket to the active one) beside writes sent to the active worker directly. Run it on a
 * quiet machine: the load generator shares the cores with the workers.
 */
const SECRET = JSON.stringify({ data: { password: 'correct horse battery staple' } });
const WRK_CONNECTIONS = 32;

interface WorkersServer extends Running {
  root: string;
  /** Worker `id`'s own API socket. */
  socketOf(id: number): string;
  /** The process ids of the primary and of every worker (the CPU they use together). */
  pids(): number[];
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'ward-workers-bench-'));
  const servers: WorkersServer[] = [];
  try {
    const one = await startWorkers(dir, 'one', 1);
    servers.push(one);
    const two = await startWorkers(dir, 'two', 2);
    servers.push(two);
    const active = await activeWorker(two);
    const standby = active === 1 ? 2 : 1;

    const reads = new Map<string, Array<{ rps: number; p99Ms: number }>>();
    const writes = new Map<string, Figures[]>();
    const keepRead = (name: string, f: { rps: number; p99Ms: number }) =>
      reads.set(name, [...(reads.get(name) ?? []), f]);
    const keepWrite = (f: Figures) => writes.set(f.name, [...(writes.get(f.name) ?? []), f]);
    for (let round = 0; round < ROUNDS; round++) {
      keepRead('KV v2 read, workers = 1', await wrkRead(one));
      keepRead('KV v2 read, workers = 2', await wrkRead(two));
      keepWrite(await socketWrite('KV v2 write to the active worker', two, active));
      keepWrite(await socketWrite('KV v2 write through a standby worker', two, standby));
    }
    const bestRead = (name: string) => (reads.get(name) ?? []).reduce((a, b) => (b.rps > a.rps ? b : a));
    const r1 = bestRead('KV v2 read, workers = 1');
    const r2 = bestRead('KV v2 read, workers = 2');
    console.log(
      `\nWorkers bench: wrk -t1 -c${WRK_CONNECTIONS} on the shared listener, writes by autocannon on one worker's socket; ` +
        `${DURATION_S} s per run, best of ${ROUNDS} interleaved rounds, ${cpus().length} cores, Node ${process.version}`,
    );
    console.log('| workload | req/s | ratio | goal | p99 ms |');
    console.log('|---|---:|---:|---|---:|');
    console.log(`| KV v2 read, workers = 1 | ${r1.rps.toFixed(0)} | 1.00 | | ${r1.p99Ms.toFixed(2)} |`);
    const readRatio = r2.rps / r1.rps;
    const verdict = readRatio >= 1.6 ? 'met' : 'missed';
    console.log(
      `| KV v2 read, workers = 2 | ${r2.rps.toFixed(0)} | ${readRatio.toFixed(2)} | ≥ 1.60 ${verdict} | ${r2.p99Ms.toFixed(2)} |`,
    );
    const direct = best(writes.get('KV v2 write to the active worker') ?? []);
    const forwarded = best(writes.get('KV v2 write through a standby worker') ?? []);
    console.log(`| ${direct.name} | ${direct.rps.toFixed(0)} | 1.00 | | ${direct.p99Ms} |`);
    console.log(
      `| ${forwarded.name} | ${forwarded.rps.toFixed(0)} | ${(forwarded.rps / direct.rps).toFixed(2)} | | ${forwarded.p99Ms} |`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

/** `ward server` with `workers = count` on a SQLite file of its own, initialised, unsealed, KV v2 at `kv/` holding one secret. */
async function startWorkers(dir: string, name: string, count: number): Promise<WorkersServer> {
  const databasePath = join(dir, `${name}.db`);
  const file = join(dir, `${name}.hcl`);
  await writeFile(
    file,
    `storage "sqlite" {\n  path = "${databasePath}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\nworkers = ${count}\n`,
  );
  const running = await startWardWithConfig(file);
  const socketOf = (id: number) => join(`${databasePath}.workers`, `worker-${id}.sock`);
  // With one worker there is no socket of its own: the shared listener is that worker.
  const on = (id: number) => (count > 1 ? { socketPath: socketOf(id) } : { url: running.url });
  for (let id = 1; id <= count; id++) await until(async () => (await call(on(id), 'GET', 'sys/health')).status === 501);
  const init = await call(on(1), 'PUT', 'sys/init', { secret_shares: 1, secret_threshold: 1 });
  const { keys_base64: keys, root_token: root } = init.body as { keys_base64: string[]; root_token: string };
  await call(on(1), 'PUT', 'sys/unseal', { key: keys[0] });
  for (let id = 1; id <= count; id++) {
    await until(async () => (await call(on(id), 'GET', 'sys/health?perfstandbyok=true')).status === 200);
  }
  await until(
    async () =>
      (await call(on(1), 'POST', 'sys/mounts/kv', { type: 'kv', options: { version: '2' } }, root)).status === 204,
  );
  await call(on(1), 'POST', 'kv/data/bench/read', JSON.parse(SECRET), root);
  await sleep(200); // every worker's feed has seen the mount and the secret
  return {
    ...running,
    root,
    socketOf,
    pids: () => [running.pid, ...childrenOf(running.pid)],
  };
}

async function activeWorker(server: WorkersServer): Promise<number> {
  for (let id = 1; id <= 2; id++) {
    if ((await call({ socketPath: server.socketOf(id) }, 'GET', 'sys/health')).status === 200) return id;
  }
  throw new Error('no worker is active');
}

/** wrk against the shared listener: reads at saturation, spread over the workers by node:cluster. */
async function wrkRead(server: WorkersServer) {
  const figures = await runWrk(`${server.url}/v1/kv/data/bench/read`, {
    durationS: DURATION_S,
    connections: WRK_CONNECTIONS,
    headers: { 'X-Vault-Token': server.root },
  });
  if (figures.non2xx > 0) throw new Error(`reads: ${figures.non2xx} answers were not 2xx`);
  return figures;
}

/** Writes with autocannon on worker `id`'s own socket (the CPU of every process of the server counted). */
function socketWrite(name: string, server: WorkersServer, id: number): Promise<Figures> {
  return measure(
    name,
    server.pids().map((pid) => ({ pid })),
    {
      url: 'http://ward/v1/kv/data/bench/write',
      socketPath: server.socketOf(id),
      method: 'POST',
      headers: { 'X-Vault-Token': server.root, 'Content-Type': 'application/json' },
      body: SECRET,
    },
  );
}

/** A process's children (the workers of a primary), from Linux's /proc; none elsewhere. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('the server did not get ready');
    await sleep(100);
  }
}

function call(
  where: { socketPath: string } | { url: string },
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; body: unknown }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const target = 'url' in where ? new URL(`/v1/${path}`, where.url) : undefined;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        ...('socketPath' in where
          ? { socketPath: where.socketPath, path: `/v1/${path}` }
          : { host: target?.hostname, port: target?.port, path: `${target?.pathname}${target?.search}` }),
        method,
        headers: { ...(token ? { 'X-Vault-Token': token } : {}), 'Content-Type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

await main();
