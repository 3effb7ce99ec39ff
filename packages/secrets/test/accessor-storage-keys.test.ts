import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { startTestServer, type TestServer, withBackends } from '../src/server/testing.js';
import { parseStorageBlock } from '../src/storage/index.js';
import { createLeasingBackend, FakeUpstream } from './fakes/leasing-engine.js';

// Issue 12 point 6: the barrier encrypts values, not keys. Whoever reads the storage file must
// find no token accessor in any key (the token store's indexes, the lease index by token).

describe('storage keys of a whole server', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-accessor-keys-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function createToken(t: TestServer, token: string, body: Record<string, unknown>) {
    const res = await t.request('POST', 'auth/token/create', { token, body: { ttl: '1h', ...body } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.auth as { client_token: string; accessor: string };
  }

  it('holds no accessor of a token tree with leases in any SQLite key', async () => {
    const path = join(dir, 'ward.db');
    const t = await startTestServer({
      storage: parseStorageBlock('sqlite', { path }),
      catalog: withBackends({ 'fake-creds': createLeasingBackend(new FakeUpstream()) }),
    });
    const accessors: string[] = [];
    try {
      assert.equal((await t.request('POST', 'sys/mounts/fake', { body: { type: 'fake-creds' } })).status, 204);
      accessors.push((await t.request('GET', 'auth/token/lookup-self')).body.data.accessor);
      const parent = await createToken(t, t.rootToken, { policies: ['root'] });
      const child = await createToken(t, parent.client_token, { policies: ['root'] });
      const grandchild = await createToken(t, child.client_token, { policies: ['default'] });
      const orphan = await createToken(t, parent.client_token, { policies: ['root'], no_parent: true });
      accessors.push(parent.accessor, child.accessor, grandchild.accessor, orphan.accessor);
      for (const token of [parent, child, orphan]) {
        const lease = await t.request('GET', 'fake/creds/app', { token: token.client_token });
        assert.equal(lease.status, 200, JSON.stringify(lease.body));
      }
      // The leases are indexed under their tokens: revoking the child takes its lease along.
      assert.equal((await t.request('LIST', 'sys/leases/lookup/fake/creds/app/')).body.data.keys.length, 3);
      assert.equal((await t.request('POST', 'auth/token/revoke', { body: { token: child.client_token } })).status, 204);
      assert.equal((await t.request('LIST', 'sys/leases/lookup/fake/creds/app/')).body.data.keys.length, 2);
    } finally {
      await t.stop();
    }

    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      const keys = db.prepare('SELECT key FROM entries').pluck().all() as string[];
      assert.ok(
        keys.some((k) => k.startsWith('sys/expire/token/')),
        'the lease index is in the file',
      );
      assert.ok(
        keys.some((k) => k.startsWith('sys/token/parent/')),
        'the parent index is in the file',
      );
      for (const accessor of accessors) {
        assert.deepEqual(
          keys.filter((k) => k.includes(accessor)),
          [],
          `accessor ${accessor} appears in storage keys`,
        );
      }
    } finally {
      db.close();
    }
  });
});
