import assert from 'node:assert/strict';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';
import { eventually, startWorkersWard, type WorkersWard, workerRequest } from './workers.testing.js';

const WORKERS = [1, 2, 3];

// Issue 36, the limit docs/workers.md named: with `workers = 3` on one SQLite file, what replaces the
// root key (a rekey under an auto seal, the end of a seal migration) or the keyring (sys/rotate)
// through one worker reaches every other worker without a restart. Every worker keeps serving and
// reads back what any worker writes; after SIGKILL of the active worker the one that takes over
// still decrypts everything, and what it writes (a rotated keyring too) opens with the key the seal
// stores after a full restart. The auto seal is `seal "transit"` against a second bin/ward.
describe('a new root key or keyring with workers = 3', () => {
  let keeper: DevWard;
  const transitStanza = () =>
    `seal "transit" {\n  address = "${keeper.url}"\n  token = "keeper-root"\n  key_name = "ward-unseal"\n  mount_path = "transit/"\n}\n`;

  before(async () => {
    keeper = await startDevWard('keeper-root');
    const keeperCall = (path: string, body: unknown) =>
      request(keeper.url, 'POST', path, { token: 'keeper-root', body });
    assert.equal((await keeperCall('sys/mounts/transit', { type: 'transit' })).status, 204);
    assert.ok((await keeperCall('transit/keys/ward-unseal', {})).status < 300);
  });
  after(async () => {
    keeper?.ward.child.kill('SIGTERM');
    await keeper?.ward.exited;
  });

  /** What one server's tests wrote (key → value), and how to check it through every worker. */
  const checks = (server: () => WorkersWard) => {
    const written = new Map<string, string>();
    let lastIndex = '0';
    const call = (id: number, method: string, path: string, options: Parameters<typeof workerRequest>[3] = {}) =>
      workerRequest(server().socketOf(id), method, path, { token: server().rootToken, ...options });
    const readValue = async (id: number, key: string, index: string) => {
      const read = await call(id, 'GET', `kv/data/${key}`, { headers: { 'X-Vault-Index': index } });
      assert.equal(read.status, 200, `worker ${id} reading ${key}: ${read.text}`);
      return (read.body?.data as { data: { v: string } }).data.v;
    };
    return {
      call,
      /** A write through each worker, read back through every worker; then everything written so far. */
      async writeThroughEach(label: string): Promise<void> {
        for (const writer of WORKERS) {
          const key = `${label}-${writer}`;
          const put = await call(writer, 'POST', `kv/data/${key}`, { body: { data: { v: key } } });
          assert.equal(put.status, 200, `worker ${writer} writing ${key}: ${put.text}`);
          lastIndex = put.headers['x-vault-index'] as string;
          written.set(key, key);
          for (const reader of WORKERS) assert.equal(await readValue(reader, key, lastIndex), key);
        }
        await this.readsEverything();
      },
      async readsEverything(): Promise<void> {
        for (const id of WORKERS) {
          for (const [key, v] of written) assert.equal(await readValue(id, key, lastIndex), v, `worker ${id}: ${key}`);
        }
      },
      /** sys/rotate through `id`; every worker then reports the new term. */
      async rotate(id: number): Promise<void> {
        const before = (await call(id, 'GET', 'sys/key-status')).body?.term as number;
        assert.equal((await call(id, 'PUT', 'sys/rotate')).status, 204);
        for (const other of WORKERS) {
          await eventually(
            async () => (await call(other, 'GET', 'sys/key-status')).body?.term === before + 1,
            `worker ${other} reports term ${before + 1}`,
          );
        }
      },
      /** SIGKILL of the active worker: another takes over, the killed one serves again. Answers the new active. */
      async killActive(): Promise<number> {
        const w = server();
        const active = await w.active();
        const pid = w.pidOf(active);
        process.kill(pid, 'SIGKILL');
        await eventually(
          async () => ![0, active].includes(await w.active().catch(() => 0)),
          'another worker is active',
        );
        await w.restarted(active, pid);
        return w.active();
      },
      async everyWorkerUnsealed(timeoutMs?: number): Promise<void> {
        for (const id of WORKERS) await server().unsealed(id, timeoutMs);
        await eventually(async () => (await server().active()) > 0, 'a worker is active');
      },
    };
  };

  describe('under a transit seal: sys/rekey with recovery keys, sys/rotate, sys/rekey-recovery-key', () => {
    let dir: string;
    let w: WorkersWard;
    const c = checks(() => w);
    let recoveryKey: string;
    const standby = async () => {
      const active = await w.active();
      return WORKERS.find((id) => id !== active) as number;
    };

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ward-workers-root-key-'));
      w = await startWorkersWard(dir, 3, { seal: transitStanza() });
      recoveryKey = w.unsealKey;
      const mounted = await c.call(1, 'POST', 'sys/mounts/kv', { body: { type: 'kv', options: { version: '2' } } });
      assert.equal(mounted.status, 204);
      await c.writeThroughEach('initial');
    });
    after(async () => {
      w?.ward.child.kill('SIGTERM');
      await w?.ward.exited;
      await rm(dir, { recursive: true, force: true });
    });

    it('sys/rekey through a standby makes a new root key; every worker keeps serving, and follows a rotation after it', async () => {
      const through = await standby();
      const begun = await c.call(through, 'PUT', 'sys/rekey/init', { body: {} });
      assert.equal(begun.status, 200, begun.text);
      const done = await c.call(through, 'PUT', 'sys/rekey/update', {
        body: { key: recoveryKey, nonce: begun.body?.nonce },
      });
      assert.equal(done.body?.complete, true, done.text);
      await c.writeThroughEach('after-rekey');
      // The keyring is now stored under the new root key: each worker reloads it from there.
      await c.rotate(through);
      await c.writeThroughEach('after-rotate');
    });

    it('sys/rekey-recovery-key: the new recovery key unseals every worker through any one of them', async () => {
      const begun = await c.call(2, 'PUT', 'sys/rekey-recovery-key/init', {
        body: { secret_shares: 1, secret_threshold: 1 },
      });
      assert.equal(begun.status, 200, begun.text);
      const done = await c.call(3, 'PUT', 'sys/rekey-recovery-key/update', {
        body: { key: recoveryKey, nonce: begun.body?.nonce },
      });
      assert.equal(done.body?.complete, true, done.text);
      const oldKey = recoveryKey;
      recoveryKey = (done.body?.keys_base64 as string[])[0] as string;
      await c.writeThroughEach('after-recovery-rekey');
      assert.equal((await c.call(1, 'PUT', 'sys/seal')).status, 204);
      for (const id of WORKERS) {
        await eventually(
          async () => (await c.call(id, 'GET', 'sys/seal-status')).body?.sealed === true,
          `${id} sealed`,
        );
      }
      const stale = await workerRequest(w.socketOf(2), 'PUT', 'sys/unseal', { body: { key: oldKey } });
      assert.equal(stale.status, 400, stale.text);
      await workerRequest(w.socketOf(3), 'PUT', 'sys/unseal', { body: { key: recoveryKey } });
      await c.everyWorkerUnsealed();
      await c.writeThroughEach('after-unseal');
    });

    it('after SIGKILL of the active worker, the new active rotates and rekeys; a full restart unseals with the stored key', async () => {
      const active = await c.killActive();
      await c.writeThroughEach('after-takeover');
      await c.rotate(active);
      const begun = await c.call(active, 'PUT', 'sys/rekey/init', { body: {} });
      await c.call(active, 'PUT', 'sys/rekey/update', { body: { key: recoveryKey, nonce: begun.body?.nonce } });
      await c.writeThroughEach('after-second-rekey');
      // Again: the active worker now is one that followed the rekeys as a standby.
      const next = await c.killActive();
      await c.rotate(next);
      await c.writeThroughEach('after-second-takeover');
      await w.restart();
      await c.everyWorkerUnsealed(60_000);
      await c.readsEverything();
      await c.writeThroughEach('after-restart');
    });
  });

  describe('the end of a seal migration (Shamir → transit)', () => {
    let dir: string;
    let w: WorkersWard;
    const c = checks(() => w);

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ward-workers-migrate-'));
      w = await startWorkersWard(dir, 3);
      const mounted = await c.call(1, 'POST', 'sys/mounts/kv', { body: { type: 'kv', options: { version: '2' } } });
      assert.equal(mounted.status, 204);
      await c.writeThroughEach('shamir');
    });
    after(async () => {
      w?.ward.child.kill('SIGTERM');
      await w?.ward.exited;
      await rm(dir, { recursive: true, force: true });
    });

    it('migrates through one worker; every worker follows, and a new active after SIGKILL rotates under the new root key', async () => {
      await appendFile(join(dir, 'ward.hcl'), transitStanza());
      await w.restart();
      for (const id of WORKERS) {
        const status = (await workerRequest(w.socketOf(id), 'GET', 'sys/seal-status')).body;
        assert.deepEqual([status?.sealed, status?.migration], [true, true], `worker ${id}`);
      }
      const unseal = await workerRequest(w.socketOf(2), 'PUT', 'sys/unseal', {
        body: { key: w.unsealKey, migrate: true },
      });
      assert.equal(unseal.body?.sealed, false, unseal.text);
      await c.everyWorkerUnsealed();
      for (const id of WORKERS) {
        const status = (await workerRequest(w.socketOf(id), 'GET', 'sys/seal-status')).body;
        assert.deepEqual([status?.type, status?.migration], ['transit', false], `worker ${id}`);
      }
      await c.writeThroughEach('migrated');
      await c.rotate(1);
      await c.writeThroughEach('migrated-rotated');
      const active = await c.killActive();
      await c.rotate(active);
      await c.writeThroughEach('migrated-takeover');
      await w.restart();
      await c.everyWorkerUnsealed(60_000);
      await c.readsEverything();
    });
  });
});
