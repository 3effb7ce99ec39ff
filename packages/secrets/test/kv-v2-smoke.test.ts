import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('harness smoke: KV v2 at secret/ over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('writes, reads and lists a secret with the LIST verb', async () => {
    const w = await t.request('POST', 'secret/data/app', { body: { data: { password: 'p1' } } });
    assert.equal(w.status, 200);
    assert.equal(w.body.data.version, 1);
    const r = await t.request('GET', 'secret/data/app');
    assert.deepEqual(r.body.data.data, { password: 'p1' });
    const l = await t.request('LIST', 'secret/metadata/');
    assert.deepEqual(l.body.data.keys, ['app']);
  });
});
