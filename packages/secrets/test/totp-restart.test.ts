import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { parseStorageBlock } from '../src/storage/index.js';

// Issue 6: the replay record lives in the engine's storage, so a used code stays refused
// across a restart and on every server sharing the storage (established servers keep it
// in one process's memory and forget it on restart).

const KEY = 'JBSWY3DPEHPK3PXP';
const USED = { errors: ['code already used; wait until the next time period'] };

describe('TOTP replay refusal over SQLite', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-totp-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('refuses a used code again after a restart, until its time is up', async () => {
    const storage = parseStorageBlock('sqlite', { path: join(dir, 'restart.db') });
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const first = await startTestServer({ storage, clock });
    let code: string;
    try {
      assert.equal((await first.request('POST', 'sys/mounts/totp', { body: { type: 'totp' } })).status, 204);
      assert.equal((await first.request('POST', 'totp/keys/app', { body: { key: KEY } })).status, 204);
      code = (await first.request('GET', 'totp/code/app')).body.data.code;
      assert.deepEqual((await first.request('POST', 'totp/code/app', { body: { code } })).body.data, { valid: true });
    } finally {
      await first.stop();
    }

    clock.advance(20_000); // the code is still inside its window
    const second = await startTestServer({
      storage,
      clock,
      reopen: { unsealKey: first.unsealKey, rootToken: first.rootToken },
    });
    try {
      const again = await second.request('POST', 'totp/code/app', { body: { code } });
      assert.equal(again.status, 400);
      assert.deepEqual(again.body, USED);
      clock.advance(70_000); // 90 s after first use: forgotten (and by now outside its window)
      assert.deepEqual((await second.request('POST', 'totp/code/app', { body: { code } })).body.data, { valid: false });
      const fresh = (await second.request('GET', 'totp/code/app')).body.data.code;
      assert.deepEqual((await second.request('POST', 'totp/code/app', { body: { code: fresh } })).body.data, {
        valid: true,
      });
    } finally {
      await second.stop();
    }
  });

  it('refuses on one server a code used on another that shares the storage', async () => {
    const storage = parseStorageBlock('sqlite', { path: join(dir, 'shared.db') });
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const a = await startTestServer({ storage, clock });
    let b: TestServer | undefined;
    try {
      await a.request('POST', 'sys/mounts/totp', { body: { type: 'totp' } });
      await a.request('POST', 'totp/keys/app', { body: { key: KEY } });
      b = await startTestServer({ storage, clock, reopen: { unsealKey: a.unsealKey, rootToken: a.rootToken } });
      const code = (await a.request('GET', 'totp/code/app')).body.data.code;
      assert.equal((await b.request('GET', 'totp/code/app')).body.data.code, code, 'same key on both');
      assert.deepEqual((await a.request('POST', 'totp/code/app', { body: { code } })).body.data, { valid: true });
      assert.deepEqual((await b.request('POST', 'totp/code/app', { body: { code } })).body, USED);
    } finally {
      await b?.stop();
      await a.stop();
    }
  });
});
