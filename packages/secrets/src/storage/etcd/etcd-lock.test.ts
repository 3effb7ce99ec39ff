import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';
import { type EtcdProcess, startEtcd } from '../testing.js';
import { EtcdHaLock } from './etcd-lock.js';

const LOCK_MODULE = new URL('./etcd-lock.js', import.meta.url).href;

describe('EtcdHaLock (issue 19 point 2)', () => {
  let etcd: EtcdProcess;
  let client: Etcd3;
  before(async () => {
    etcd = await startEtcd();
    client = new Etcd3({ hosts: etcd.url });
  });
  after(async () => {
    client?.close();
    await etcd?.stop();
  });

  it('lets one server hold the lock; the other waits, sees the holder, and takes over on step-down', async () => {
    const a = new EtcdHaLock({ client, key: 'step.lock', ttlSeconds: 5, value: 'a' });
    const b = new EtcdHaLock({ client, key: 'step.lock', ttlSeconds: 5, value: 'b' });
    await a.acquire();
    let bHolds = false;
    const bAcquired = b.acquire().then(() => {
      bHolds = true;
    });
    assert.equal(await b.holder(), 'a');
    assert.equal(bHolds, false);
    await a.release();
    await bAcquired;
    assert.equal(await a.holder(), 'b');
    await b.release();
    assert.equal(await a.holder(), undefined);
  });

  it('frees the lock once a holder killed with SIGKILL stops keeping its lease alive', async () => {
    // The holder is a separate process, so its death is a real one: no revoke, no goodbye.
    const script = `
      import { Etcd3 } from 'etcd3';
      import { EtcdHaLock } from ${JSON.stringify(LOCK_MODULE)};
      const lock = new EtcdHaLock({ client: new Etcd3({ hosts: ${JSON.stringify(etcd.url)} }), key: 'kill.lock', ttlSeconds: 2, value: 'doomed' });
      await lock.acquire();
      console.log('held');
      setInterval(() => {}, 1000);
    `;
    const holder = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(holder, 'exit');
    try {
      await once(holder.stdout, 'data');
      const standby = new EtcdHaLock({ client, key: 'kill.lock', ttlSeconds: 2, value: 'standby' });
      assert.equal(await standby.holder(), 'doomed');
      const taken = standby.acquire();
      holder.kill('SIGKILL');
      await exited;
      await taken;
      assert.equal(await standby.holder(), 'standby');
      await standby.release();
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('stops waiting when released before it gets the lock', async () => {
    const a = new EtcdHaLock({ client, key: 'stop.lock', ttlSeconds: 5, value: 'a' });
    const b = new EtcdHaLock({ client, key: 'stop.lock', ttlSeconds: 5, value: 'b' });
    await a.acquire();
    const refused = assert.rejects(b.acquire(), /released/);
    await b.holder();
    await b.release();
    await refused;
    assert.equal(await a.holder(), 'a');
    await a.release();
  });
});
