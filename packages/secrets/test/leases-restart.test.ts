import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { startTestServer } from '../src/server/testing.js';
import { parseStorageBlock } from '../src/storage/index.js';

describe('leases across a restart', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-leases-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('revokes on restart a token whose lease expired while the server was down, and keeps the others', async () => {
    const storage = parseStorageBlock('sqlite', { path: join(dir, 'ward.db') });
    const clock = new FakeClock('2030-01-01T00:00:00Z');
    const first = await startTestServer({ storage, clock });
    const create = async (ttl: string) =>
      (await first.request('POST', 'auth/token/create', { body: { policies: ['default'], ttl } })).body.auth;
    const short = await create('10m');
    const long = await create('5h');
    const leases = await first.request('LIST', 'sys/leases/lookup/auth/token/create/');
    assert.equal(leases.body.data.keys.length, 2);
    await first.stop();

    // An hour passes while the server is down.
    clock.advance(60 * 60_000);
    const second = await startTestServer({
      storage,
      clock,
      reopen: { unsealKey: first.unsealKey, rootToken: first.rootToken },
    });
    try {
      await second.server.core.expiration.settled();
      const lookup = (token: string) => second.request('GET', 'auth/token/lookup-self', { token });
      assert.equal((await lookup(short.client_token)).status, 403, 'the expired token is gone');
      assert.equal((await lookup(long.client_token)).status, 200, 'the live token still works');
      const remaining = await second.request('LIST', 'sys/leases/lookup/auth/token/create/');
      assert.equal(remaining.body.data.keys.length, 1);
      const gone = await second.request('POST', 'auth/token/lookup-accessor', { body: { accessor: short.accessor } });
      assert.notEqual(gone.status, 200);
      // And the live one is revoked on time, by the same timer.
      clock.advance(4 * 60 * 60_000 + 1000);
      await second.server.core.expiration.settled();
      assert.equal((await lookup(long.client_token)).status, 403);
    } finally {
      await second.stop();
    }
  });

  it('answers an asynchronous revocation with 202', async () => {
    const t = await startTestServer();
    try {
      await t.request('POST', 'auth/token/create', { body: { policies: ['default'], ttl: '1h' } });
      const [suffix] = (await t.request('LIST', 'sys/leases/lookup/auth/token/create/')).body.data.keys;
      const res = await t.request('PUT', 'sys/leases/revoke', {
        body: { lease_id: `auth/token/create/${suffix}`, sync: false },
      });
      assert.equal(res.status, 202);
    } finally {
      await t.stop();
    }
  });
});
