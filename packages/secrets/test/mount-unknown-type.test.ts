import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createKvBackend } from '../src/engines/kv/backend.js';
import { startTestServer, type TestServer, withBackends } from '../src/server/testing.js';
import { parseStorageBlock } from '../src/storage/index.js';

// Issue 12 point 1: a stored mount whose type the catalog no longer has (as older servers let
// `constructor` in) must not keep the server sealed or failing after a restart.
describe('a stored mount of a type the server does not know (issue 12)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ward-unknown-type-'));
  const storage = parseStorageBlock('sqlite', { path: join(dir, 'ward.db') });
  let t: TestServer | undefined;
  after(async () => {
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('unseals, serves everything else, and lets the operator unmount it', async () => {
    const first = await startTestServer({ storage, catalog: withBackends({ retired: createKvBackend }) });
    assert.equal((await first.request('POST', 'sys/mounts/old', { body: { type: 'retired' } })).status, 204);
    const creds = { unsealKey: first.unsealKey, rootToken: first.rootToken };
    await first.stop();

    t = await startTestServer({ storage, reopen: creds });
    assert.equal((await t.request('GET', 'sys/health')).status, 200);
    assert.equal((await t.request('POST', 'secret/data/s', { body: { data: { a: 1 } } })).status, 200);
    assert.equal((await t.request('GET', 'old/data/x')).status, 404);
    assert.equal((await t.request('GET', 'sys/mounts')).body.data['old/'].type, 'retired');
    assert.equal((await t.request('DELETE', 'sys/mounts/old')).status, 204);
    assert.equal((await t.request('GET', 'sys/mounts')).body.data['old/'], undefined);
  });
});
