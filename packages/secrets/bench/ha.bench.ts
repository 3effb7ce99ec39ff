import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd } from '../src/storage/testing.js';
import { best, DURATION_S, type Figures, measure, ROUNDS, type Running, startWardWithConfig } from './bench-support.js';

/**
 * Issue 19: KV v2 read and write throughput of a server on etcd beside one on SQLite, and
 * read throughput through one active server plus one performance standby beside the active
 * alone — all in one run on one machine (etcd is a single local member here).
 */
const LISTENER = 'listener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n';
const SECRET = JSON.stringify({ data: { password: 'correct horse battery staple' } });

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'ward-ha-bench-'));
  const etcd = await startEtcd();
  const servers: Running[] = [];
  const start = async (name: string, storage: string) => {
    const file = join(dir, `${name}.hcl`);
    await writeFile(file, `${storage}${LISTENER}`);
    const server = await startWardWithConfig(file);
    servers.push(server);
    return server;
  };
  try {
    const sqlite = await start('sqlite', `storage "sqlite" {\n  path = "${join(dir, 'ward.db')}"\n}\n`);
    const etcdStorage = `storage "etcd" {\n  address = "${etcd.url}"\n  path = "bench/"\n  ha_enabled = "true"\n}\n`;
    const active = await start('active', etcdStorage);
    const sqliteToken = await initialise(sqlite);
    const token = await initialise(active);
    // A configured server's secret/ is KV version 1; this bench measures version 2 there.
    await untilHealth(active, 200);
    await mountKvV2AtSecret(sqlite, sqliteToken.root);
    await mountKvV2AtSecret(active, token.root);
    const standby = await start('standby', etcdStorage);
    await unseal(standby, token);
    await untilHealth(standby, 473);

    const headers = (t: string) => ({ 'X-Vault-Token': t, 'Content-Type': 'application/json' });
    const read = (s: Running, t: string) => ({ url: `${s.url}/v1/secret/data/bench/read`, headers: headers(t) });
    const write = (s: Running, t: string) => ({
      url: `${s.url}/v1/secret/data/bench/write`,
      method: 'POST' as const,
      headers: headers(t),
      body: SECRET,
    });
    await fetch(read(sqlite, sqliteToken.root).url, {
      method: 'POST',
      headers: headers(sqliteToken.root),
      body: SECRET,
    });
    await fetch(read(active, token.root).url, { method: 'POST', headers: headers(token.root), body: SECRET });

    const rounds = new Map<string, Figures[]>();
    const keep = (f: Figures) => rounds.set(f.name, [...(rounds.get(f.name) ?? []), f]);
    for (let round = 0; round < ROUNDS; round++) {
      keep(await measure('KV v2 read, SQLite', sqlite, read(sqlite, sqliteToken.root)));
      keep(await measure('KV v2 read, etcd', active, read(active, token.root)));
      keep(await measure('KV v2 write, SQLite', sqlite, write(sqlite, sqliteToken.root)));
      keep(await measure('KV v2 write, etcd', active, write(active, token.root)));
      // Both servers loaded at once, each by its own load generator; their throughputs add up.
      const [onActive, onStandby] = await Promise.all([
        measure('read on the active', active, read(active, token.root)),
        measure('read on the standby', standby, read(standby, token.root)),
      ]);
      keep({ ...onActive, name: 'KV v2 read, active + performance standby', rps: onActive.rps + onStandby.rps });
    }
    const f = (name: string) => best(rounds.get(name) ?? []);
    console.log(`\nHA bench: ${DURATION_S} s per run, best of ${ROUNDS} interleaved rounds, Node ${process.version}`);
    console.log('| workload | req/s | compared with | ratio | p99 ms | server CPU µs/req |');
    console.log('|---|---:|---|---:|---:|---:|');
    const row = (name: string, against?: string) => {
      const figures = f(name);
      const ratio = against ? (figures.rps / f(against).rps).toFixed(2) : '';
      console.log(
        `| ${name} | ${figures.rps.toFixed(0)} | ${against ?? ''} | ${ratio} | ${figures.p99Ms} | ${figures.cpuUsPerRequest.toFixed(1)} |`,
      );
    };
    row('KV v2 read, SQLite');
    row('KV v2 read, etcd', 'KV v2 read, SQLite');
    row('KV v2 write, SQLite');
    row('KV v2 write, etcd', 'KV v2 write, SQLite');
    row('KV v2 read, active + performance standby', 'KV v2 read, etcd');
    const lagMs = await propagation(active, standby, token.root);
    console.log(
      `\nA write on the active server, read back on the standby without an index header (${lagMs.length} writes):` +
        ` median ${median(lagMs).toFixed(1)} ms, max ${Math.max(...lagMs).toFixed(1)} ms (issue 19 asks for ≤ 1 s)`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await etcd.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** For each of 20 writes on the active server, how long until the standby serves the new value (polled). */
async function propagation(active: Running, standby: Running, token: string): Promise<number[]> {
  const headers = { 'X-Vault-Token': token };
  const lags: number[] = [];
  for (let i = 0; i < 20; i++) {
    const body = JSON.stringify({ data: { v: i } });
    await fetch(`${active.url}/v1/secret/data/bench/lag`, { method: 'POST', headers, body });
    const written = performance.now();
    for (;;) {
      const res = await fetch(`${standby.url}/v1/secret/data/bench/lag`, { headers });
      const read = (await res.json()) as { data?: { data?: { v?: number } } };
      if (read.data?.data?.v === i) break;
      if (performance.now() - written > 10_000) throw new Error('the standby never served the write');
    }
    lags.push(performance.now() - written);
  }
  return lags;
}

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function api(server: Running, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}/v1/${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** Initialises and unseals; the root token and the unseal key. */
async function initialise(server: Running): Promise<{ root: string; key: string }> {
  const init = await api(server, 'PUT', 'sys/init', { secret_shares: 1, secret_threshold: 1 });
  const key = (init.keys as string[])[0] as string;
  await api(server, 'PUT', 'sys/unseal', { key });
  return { root: init.root_token as string, key };
}

/** Replaces the configured server's KV version 1 at `secret/` with version 2. */
async function mountKvV2AtSecret(server: Running, root: string) {
  const headers = { 'X-Vault-Token': root };
  const unmounted = await fetch(`${server.url}/v1/sys/mounts/secret`, { method: 'DELETE', headers });
  const mounted = await fetch(`${server.url}/v1/sys/mounts/secret`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ type: 'kv', options: { version: '2' } }),
  });
  if (unmounted.status !== 204 || mounted.status !== 204)
    throw new Error(`${server.url}: KV v2 at secret/ not mounted (${unmounted.status}, ${mounted.status})`);
}

async function unseal(server: Running, secrets: { key: string }) {
  await api(server, 'PUT', 'sys/unseal', { key: secrets.key });
}

async function untilHealth(server: Running, status: number) {
  for (let i = 0; i < 300; i++) {
    if ((await fetch(`${server.url}/v1/sys/health`)).status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.url} never answered sys/health with ${status}`);
}

await main();
