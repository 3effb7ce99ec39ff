import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 12 point 9: a remount into (or out of) a child namespace must not half-move the mount.
describe('sys/remount across namespaces (issue 12)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.request('POST', 'sys/namespaces/ns1')).status, 200);
    assert.equal((await t.request('POST', 'sys/mounts/rm2', { body: { type: 'kv-v2' } })).status, 204);
    assert.equal((await t.request('POST', 'rm2/data/s', { body: { data: { kept: true } } })).status, 200);
  });
  after(() => t.stop());

  it('refuses to move a mount into a child namespace, and leaves it serving where it was', async () => {
    const moved = await t.request('POST', 'sys/remount', { body: { from: 'rm2', to: 'ns1/moved' } });
    assert.equal(moved.status, 400);
    assert.match(moved.body.errors[0], /child namespace/);
    assert.ok((await t.request('GET', 'sys/mounts')).body.data['rm2/']);
    assert.equal((await t.request('GET', 'sys/mounts')).body.data['ns1/moved/'], undefined);
    assert.deepEqual((await t.request('GET', 'rm2/data/s')).body.data.data, { kept: true });
    assert.equal((await t.request('GET', 'ns1/moved/data/s')).status >= 400, true);
  });

  it('refuses to move a mount out of a child namespace through its parent', async () => {
    assert.equal((await t.request('POST', 'ns1/sys/mounts/inner', { body: { type: 'kv-v2' } })).status, 204);
    const res = await t.request('POST', 'sys/remount', { body: { from: 'ns1/inner', to: 'outer' } });
    assert.equal(res.status, 400);
    assert.ok((await t.request('GET', 'ns1/sys/mounts')).body.data['inner/']);
  });
});
