import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startWard } from './ward-process.js';
import { eventually, startWorkersWard, type WorkersWard, workerRequest } from './workers.testing.js';

const WORKERS = [1, 2, 3];

// Issue 36: `workers = 3` on one SQLite file: one active worker, two performance standbys, through bin/ward.
describe('ward server with workers = 3 on one SQLite file', () => {
  let dir: string;
  let w: WorkersWard;
  const call = (id: number, method: string, path: string, options: Parameters<typeof workerRequest>[3] = {}) =>
    workerRequest(w.socketOf(id), method, path, { token: w.rootToken, ...options });
  const readValue = async (id: number, key: string, index?: string) => {
    const answer = await call(id, 'GET', `kv/data/${key}`, { headers: index ? { 'X-Vault-Index': index } : {} });
    return (answer.body?.data as { data?: { v?: string } } | undefined)?.data?.v;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-workers-'));
    w = await startWorkersWard(dir, 3);
    const mounted = await call(1, 'POST', 'sys/mounts/kv', { body: { type: 'kv', options: { version: '2' } } });
    assert.equal(mounted.status, 204);
  });
  after(async () => {
    w?.ward.child.kill('SIGTERM');
    await w?.ward.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('names the worker that answered, on the shared listener and on each worker socket', async () => {
    for (const id of WORKERS) assert.equal((await call(id, 'GET', 'sys/health')).headers['x-ward-worker'], String(id));
    const shared = await fetch(`${w.url}/v1/sys/health?perfstandbyok=true`);
    assert.match(shared.headers.get('x-ward-worker') ?? '', /^[123]$/);
  });

  it('reads a write made through any worker back through every worker with its index', async () => {
    for (const writer of WORKERS) {
      const put = await call(writer, 'POST', `kv/data/from-${writer}`, { body: { data: { v: `by ${writer}` } } });
      assert.equal(put.status, 200);
      const index = put.headers['x-vault-index'];
      assert.equal(typeof index, 'string');
      for (const reader of WORKERS)
        assert.equal(await readValue(reader, `from-${writer}`, index as string), `by ${writer}`);
    }
  });

  it('invalidates the other workers’ caches on a write: no stale read once the index is reached', async () => {
    await call(1, 'POST', 'kv/data/cached', { body: { data: { v: 'old' } } });
    // Every worker reads (and caches) the old value first.
    for (const id of WORKERS)
      await eventually(async () => (await readValue(id, 'cached')) === 'old', `worker ${id} sees old`);
    for (let round = 0; round < 5; round++) {
      const writer = WORKERS[round % 3] as number;
      const put = await call(writer, 'POST', 'kv/data/cached', { body: { data: { v: `new ${round}` } } });
      const index = put.headers['x-vault-index'] as string;
      for (const id of WORKERS) assert.equal(await readValue(id, 'cached', index), `new ${round}`);
    }
    // Without the header too, once the change feed has been polled (every 10 ms).
    await sleep(100);
    for (const id of WORKERS) assert.equal(await readValue(id, 'cached'), 'new 4');
  });

  it('counts failed logins across workers for the lockout', async () => {
    await call(1, 'POST', 'sys/auth/userpass', { body: { type: 'userpass' } });
    await call(2, 'POST', 'auth/userpass/users/bob', { body: { password: 'right' } });
    const login = (id: number, password: string) =>
      workerRequest(w.socketOf(id), 'POST', 'auth/userpass/login/bob', { body: { password } });
    // Four failures spread over the workers lock nobody out; the fifth (the threshold) does.
    for (const id of [1, 2, 3, 1]) assert.notEqual((await login(id, 'wrong')).status, 200);
    assert.equal((await login(3, 'right')).status, 200);
    for (const id of [1, 2, 3, 1, 2]) assert.notEqual((await login(id, 'wrong')).status, 200);
    for (const id of WORKERS) assert.notEqual((await login(id, 'right')).status, 200, `worker ${id} lets bob in`);
  });

  it('expires leases exactly once, on the active worker, also after it was killed', async () => {
    const tokens: string[] = [];
    for (const id of WORKERS) {
      const created = await call(id, 'POST', 'auth/token/create', { body: { ttl: '3s', policies: ['default'] } });
      tokens.push((created.body?.auth as { client_token: string }).client_token);
    }
    // Each lease is tracked (and so expired) by the active worker alone; the standbys hold none.
    // One scrape through any worker shows every worker's series, each labelled with its worker.
    const tracked = async (through = 1) => {
      const metrics = await call(through, 'GET', 'sys/metrics?format=prometheus');
      const lines = metrics.text.matchAll(/^ward_expire_num_leases\{state="active",worker="(\d)"\} (\d+)$/gm);
      return new Map([...lines].map((m) => [Number(m[1]), Number(m[2])]));
    };
    const before = await tracked();
    const active = await w.active();
    assert.deepEqual([...(await tracked(3)).keys()].sort(), WORKERS, 'a scrape shows every worker');
    assert.ok((before.get(active) ?? 0) >= 3, JSON.stringify([...before]));
    for (const id of WORKERS.filter((i) => i !== active)) assert.equal(before.get(id), 0, `worker ${id} tracks leases`);
    const activeBefore = active;
    process.kill(w.pidOf(activeBefore), 'SIGKILL');
    await eventually(async () => (await w.active()) !== activeBefore, 'another worker is active');
    const isRevokedEverywhere = async () => {
      for (const token of tokens) {
        for (const id of WORKERS.filter((i) => i !== activeBefore)) {
          const lookup = await workerRequest(w.socketOf(id), 'GET', 'auth/token/lookup-self', { token });
          if (lookup.status !== 403) return false;
        }
      }
      return true;
    };
    // Bounded generously: the new active must first take over and restore the leases (slow on a busy machine).
    await eventually(isRevokedEverywhere, 'the short tokens are revoked on every worker', 30_000);
    // The worker that took over restored the three leases and expired them.
    const now = await w.active();
    const expected = (before.get(activeBefore) ?? 0) - 3;
    await eventually(async () => (await tracked(now)).get(now) === expected, 'leases expired', 30_000);
  });

  it('starts a standby killed with SIGKILL again; unsealed by its siblings, it serves again', async () => {
    for (const id of WORKERS) await w.restarted(id, 0);
    const active = await w.active();
    const standby = WORKERS.find((id) => id !== active) as number;
    const pid = w.pidOf(standby);
    process.kill(pid, 'SIGKILL');
    await w.restarted(standby, pid);
    const put = await call(active, 'POST', 'kv/data/after-restart', { body: { data: { v: 'seen' } } });
    const index = put.headers['x-vault-index'] as string;
    assert.equal(await readValue(standby, 'after-restart', index), 'seen');
    // Writes through it are forwarded again.
    assert.equal((await call(standby, 'POST', 'kv/data/via-restarted', { body: { data: { v: 'x' } } })).status, 200);
  });

  it('seals every worker on sys/seal through one, and unseals every worker with the key given to one', async () => {
    for (const id of WORKERS) await w.restarted(id, 0);
    const sealed = async (id: number) =>
      ((await call(id, 'GET', 'sys/seal-status')).body as { sealed?: boolean } | undefined)?.sealed;
    assert.equal((await call(2, 'PUT', 'sys/seal')).status, 204);
    for (const id of WORKERS) await eventually(async () => (await sealed(id)) === true, `worker ${id} is sealed`);
    const unseal = await call(3, 'PUT', 'sys/unseal', { body: { key: w.unsealKey } });
    assert.equal((unseal.body as { sealed?: boolean }).sealed, false);
    for (const id of WORKERS) await eventually(async () => (await sealed(id)) === false, `worker ${id} is unsealed`);
    await eventually(async () => (await w.active()) > 0, 'a worker is active again');
  });

  it('hands over from an active killed with SIGKILL within a second, losing no acknowledged write', async () => {
    for (const id of WORKERS) await w.restarted(id, 0);
    const active = await w.active();
    const standbys = WORKERS.filter((id) => id !== active);
    const acked: Array<{ key: string; index: string; atMs: number }> = [];
    let isWriting = true;
    const writer = async (id: number) => {
      for (let i = 0; isWriting; i++) {
        const key = `acked-${id}-${i}`;
        const put = await call(id, 'POST', `kv/data/${key}`, { body: { data: { v: key } } }).catch(() => undefined);
        if (put?.status === 200) acked.push({ key, index: put.headers['x-vault-index'] as string, atMs: Date.now() });
        else await sleep(10);
      }
    };
    const writers = standbys.map((id) => writer(id));
    await sleep(300);
    const killedAtMs = Date.now();
    // sys/leader on a standby names the lock holder's cluster socket: `worker-<id>.cluster.sock`.
    const leaderOf = async () =>
      String((await call(standbys[0] as number, 'GET', 'sys/leader')).body?.leader_cluster_address ?? '');
    assert.match(await leaderOf(), new RegExp(`worker-${active}\\.cluster\\.sock$`));
    process.kill(w.pidOf(active), 'SIGKILL');
    await eventually(
      async () => !(await leaderOf()).endsWith(`worker-${active}.cluster.sock`),
      'the lock is handed over',
    );
    const handedOverAfterMs = Date.now() - killedAtMs;
    await eventually(async () => (await w.active()) !== active, 'another worker is active');
    await eventually(async () => acked.some((a) => a.atMs > killedAtMs + 50), 'writes are acknowledged again', 5_000);
    await sleep(300);
    isWriting = false;
    await Promise.all(writers);
    const resumedAfterMs = (acked.find((a) => a.atMs > killedAtMs + 50)?.atMs ?? 0) - killedAtMs;
    assert.ok(handedOverAfterMs < 1_000, `another worker held the lock ${handedOverAfterMs} ms after the kill`);
    // A forward waiting for the takeover is retried every 100 ms; bounded generously for a busy machine.
    assert.ok(resumedAfterMs < 2_000, `writes resumed ${resumedAfterMs} ms after the kill`);
    assert.ok(acked.length > 5, `only ${acked.length} writes acknowledged`);
    const lastIndex = String(Math.max(...acked.map((a) => Number(a.index))));
    for (const id of standbys) {
      for (const { key } of acked) assert.equal(await readValue(id, key, lastIndex), key, `worker ${id} lost ${key}`);
    }
  });
});

describe('ward server -workers', () => {
  const refused = async (args: string[], message: RegExp) => {
    const ward = startWard(['server', ...args]);
    assert.equal(await ward.exited, 1);
    assert.match(ward.output(), message);
  };

  it('refuses a count outside 1 to 64 at start, in one line', () =>
    refused(['-dev', '-dev-listen-address=127.0.0.1:0', '-workers=65'], /-workers must be an integer from 1 to 64/));

  it('refuses more than one worker on a store that is not SQLite', () =>
    refused(['-dev', '-dev-listen-address=127.0.0.1:0', '-workers=2'], /workers = 2 needs storage "sqlite"/));

  it('stops with status 1 when the workers cannot start (their port is taken), instead of restarting them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-workers-'));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const config = join(dir, 'ward.hcl');
      await writeFile(
        config,
        `storage "sqlite" {\n  path = "${join(dir, 'ward.db')}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:${port}"\n  tls_disable = true\n}\n`,
      );
      await refused([`-config=${config}`, '-workers=2'], /a worker process could not start/);
    } finally {
      taken.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
