import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard } from '../src/cli/testing.js';
import { startWard, type WardProcess } from './ward-process.js';
import { eventually, startWorkersWard, type WorkersWard, workerRequest } from './workers.testing.js';

const WORKERS = [1, 2, 3];

// Issue 36 point 2: `ward operator rekey` on a server with workers = 3. Each CLI run opens a new
// connection to the shared listener, so its steps reach different workers: the rekey's state lives
// on the active worker, and every worker unseals with the new shares afterwards (also after a restart).
describe('ward operator rekey with workers = 3', () => {
  let dir: string;
  let w: WorkersWard;
  let ward: WardProcess;
  let newKeys: string[];
  const socketOf = (id: number) => join(dir, 'ward.db.workers', `worker-${id}.sock`);
  const call = (id: number, method: string, path: string, options: Parameters<typeof workerRequest>[3] = {}) =>
    workerRequest(socketOf(id), method, path, { token: w.rootToken, ...options });
  const sealStatus = async (id: number) =>
    (await workerRequest(socketOf(id), 'GET', 'sys/seal-status')).body as { sealed: boolean; t: number; n: number };
  const cli = (args: string[]) => runWard(args, { VAULT_ADDR: w.url, VAULT_TOKEN: w.rootToken, HOME: dir });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-workers-rekey-'));
    w = await startWorkersWard(dir, 3);
    ward = w.ward;
    assert.equal(
      (await call(1, 'POST', 'sys/mounts/kv', { body: { type: 'kv', options: { version: '2' } } })).status,
      204,
    );
  });
  after(async () => {
    ward?.child.kill('SIGTERM');
    await ward?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('rekeys through the shared listener, and every worker keeps serving', async () => {
    const init = await cli(['operator', 'rekey', '-init', '-key-shares=3', '-key-threshold=2']);
    assert.equal(init.code, 0, init.stderr);
    // Every worker reports the attempt (the status is the active worker's).
    for (const id of WORKERS) {
      const status = await call(id, 'GET', 'sys/rekey/init');
      assert.equal((status.body as { started?: boolean }).started, true, `worker ${id}: ${status.text}`);
    }
    // The nonce is read from the status, through whichever worker the connection reaches.
    const last = await cli(['operator', 'rekey', w.unsealKey]);
    assert.equal(last.code, 0, last.stderr);
    newKeys = [...last.stdout.matchAll(/^Key \d: (\S+)$/gm)].map((m) => m[1] ?? '');
    assert.equal(newKeys.length, 3, last.stdout);
    for (const id of WORKERS) {
      await eventually(async () => (await sealStatus(id)).t === 2, `worker ${id} reports the new threshold`);
      assert.equal((await sealStatus(id)).n, 3);
      const put = await call(id, 'POST', `kv/data/after-rekey-${id}`, { body: { data: { v: String(id) } } });
      assert.equal(put.status, 200, put.text);
      for (const reader of WORKERS) {
        const read = await call(reader, 'GET', `kv/data/after-rekey-${id}`, {
          headers: { 'X-Vault-Index': put.headers['x-vault-index'] as string },
        });
        assert.equal((read.body?.data as { data: { v: string } }).data.v, String(id));
      }
    }
  });

  it('starts a standby killed after the rekey again, unsealed by its siblings', async () => {
    const active = await w.active();
    const standby = WORKERS.find((id) => id !== active) as number;
    const pid = w.pidOf(standby);
    process.kill(pid, 'SIGKILL');
    await w.restarted(standby, pid);
    const put = await call(standby, 'POST', 'kv/data/via-restarted', { body: { data: { v: 'x' } } });
    assert.equal(put.status, 200, put.text);
  });

  it('unseals every worker with the new shares given to any one of them; the old key no longer unseals', async () => {
    for (const id of WORKERS) {
      assert.equal((await call(id, 'PUT', 'sys/seal')).status, 204);
      for (const other of WORKERS) await eventually(async () => (await sealStatus(other)).sealed, `${other} sealed`);
      // The old key counts as a share (threshold 2 now), but does not combine with a new one.
      await workerRequest(socketOf(id), 'PUT', 'sys/unseal', { body: { key: w.unsealKey } });
      const mixed = await workerRequest(socketOf(id), 'PUT', 'sys/unseal', { body: { key: newKeys[0] } });
      assert.notEqual(mixed.status, 200, `worker ${id} unsealed with the old key: ${mixed.text}`);
      assert.equal((await sealStatus(id)).sealed, true);
      await workerRequest(socketOf(id), 'PUT', 'sys/unseal', { body: { reset: true } });
      for (const key of [newKeys[id - 1], newKeys[id % 3]]) {
        await workerRequest(socketOf(id), 'PUT', 'sys/unseal', { body: { key } });
      }
      for (const other of WORKERS) {
        await eventually(async () => !(await sealStatus(other)).sealed, `worker ${other} unsealed through ${id}`);
      }
      await eventually(async () => (await w.active()) > 0, 'a worker is active again');
    }
  });

  it('after a restart of the server, the new shares unseal it through any worker', async () => {
    for (const through of [2, 3]) {
      ward.child.kill('SIGTERM');
      assert.equal(await ward.exited, 0);
      ward = startWard(['server', `-config=${join(dir, 'ward.hcl')}`]);
      for (const id of WORKERS) await ward.waitFor(new RegExp(`listening: worker=${id} url=unix://`), 90_000);
      for (const key of newKeys.slice(0, 2)) {
        await workerRequest(socketOf(through), 'PUT', 'sys/unseal', { body: { key } });
      }
      for (const id of WORKERS) {
        await eventually(async () => !(await sealStatus(id)).sealed, `worker ${id} unsealed`, 30_000);
        const read = await call(id, 'GET', 'kv/data/after-rekey-1');
        assert.equal(read.status, 200, `worker ${id}: ${read.text}`);
      }
    }
  });
});
