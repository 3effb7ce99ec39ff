import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// In-place upgrade of a KV version 1 mount to version 2 (`vault kv enable-versioning`, i.e.
// `sys/mounts/:path/tune` with `options.version = "2"`), as established: each key's value becomes
// version 1 of a v2 secret; v2 → v1 is refused.

const UPGRADING = /Upgrading from non-versioned to versioned data/;

describe('KV version 1 → 2 upgrade in place', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  /** Polls the mount until it stops answering "upgrading" (the upgrade runs in the background). */
  const waitUpgraded = async (mount: string) => {
    for (;;) {
      const res = await t.request('LIST', `${mount}/metadata/`);
      if (res.status !== 400) return;
      assert.match(JSON.stringify(res.body.errors), UPGRADING);
      await new Promise((r) => setImmediate(r));
    }
  };

  it('turns every key into version 1 of a v2 secret, with metadata, and lists the mount as version 2', async () => {
    assert.equal((await t.request('POST', 'sys/mounts/legacy', { body: { type: 'kv' } })).status, 204);
    const secrets = new Map<string, Record<string, unknown>>([
      ['top', { a: '1' }],
      ['app/db', { user: 'app', password: 's3cret', port: 5432 }],
      ['app/nested/deep/key', { ttl: '1h', x: { y: true } }],
      ['other/one', { v: 'one' }],
    ]);
    for (const [path, data] of secrets) {
      assert.equal((await t.request('POST', `legacy/${path}`, { body: data })).status, 204);
    }
    const before = t.clock.now();
    const tune = await t.request('POST', 'sys/mounts/legacy/tune', { body: { options: { version: '2' } } });
    assert.equal(tune.status, 200);
    assert.deepEqual(tune.body.warnings, [
      'Upgrading mount from version 1 to version 2. This mount will be unavailable for a brief period and will resume service shortly.',
    ]);
    await waitUpgraded('legacy');

    for (const [path, data] of secrets) {
      const read = await t.request('GET', `legacy/data/${path}`);
      assert.equal(read.status, 200, path);
      assert.deepEqual(read.body.data.data, data, path);
      assert.equal(read.body.data.metadata.version, 1);
      const meta = await t.request('GET', `legacy/metadata/${path}`);
      assert.equal(meta.body.data.current_version, 1);
      assert.deepEqual(Object.keys(meta.body.data.versions), ['1']);
      assert.ok(Date.parse(meta.body.data.created_time) >= before, 'created at the upgrade');
      assert.equal(meta.body.data.versions['1'].deletion_time, '');
      assert.equal(meta.body.data.versions['1'].destroyed, false);
    }
    assert.deepEqual((await t.request('LIST', 'legacy/metadata/')).body.data.keys, ['app/', 'other/', 'top']);
    assert.deepEqual((await t.request('LIST', 'legacy/metadata/app/')).body.data.keys, ['db', 'nested/']);

    // Writes make version 2; the old v1 paths are v2 paths no more.
    const put = await t.request('POST', 'legacy/data/top', { body: { data: { a: '2' } } });
    assert.equal(put.body.data.version, 2);
    assert.equal((await t.request('GET', 'legacy/top')).status, 404);

    const mounts = await t.request('GET', 'sys/mounts');
    assert.equal(mounts.body.data['legacy/'].type, 'kv');
    assert.deepEqual(mounts.body.data['legacy/'].options, { version: '2' });
    assert.deepEqual((await t.request('GET', 'sys/mounts/legacy/tune')).body.data.options, { version: '2' });
  });

  it('an empty v1 mount upgrades at once; tuning version 2 again changes nothing', async () => {
    await t.request('POST', 'sys/mounts/empty', { body: { type: 'kv', options: { version: '1' } } });
    const tune = await t.request('POST', 'sys/mounts/empty/tune', { body: { options: { version: '2' } } });
    assert.equal(tune.status, 200);
    await waitUpgraded('empty');
    assert.equal((await t.request('POST', 'empty/data/x', { body: { data: { k: 'v' } } })).status, 200);
    const again = await t.request('POST', 'sys/mounts/empty/tune', { body: { options: { version: '2' } } });
    assert.equal(again.status, 204, 'same version: no upgrade, no warning');
    assert.equal((await t.request('GET', 'empty/data/x')).body.data.metadata.version, 1);
  });

  it('refuses v2 → v1, versions other than 1 and 2, and a version on an engine other than kv', async () => {
    await t.request('POST', 'sys/mounts/v2', { body: { type: 'kv-v2' } });
    const down = await t.request('POST', 'sys/mounts/v2/tune', { body: { options: { version: '1' } } });
    assert.equal(down.status, 400);
    assert.deepEqual(down.body.errors, ['cannot downgrade mount from version 2']);
    for (const version of ['3', '0', 'two', '', ' 2']) {
      const bad = await t.request('POST', 'sys/mounts/v2/tune', { body: { options: { version } } });
      assert.equal(bad.status, 400, `version ${JSON.stringify(version)}`);
    }
    assert.deepEqual(
      (await t.request('POST', 'sys/mounts/v2/tune', { body: { options: { version: '3' } } })).body.errors,
      ['invalid version provided: 3'],
    );
    assert.deepEqual((await t.request('GET', 'sys/mounts/v2/tune')).body.data.options, { version: '2' });
    for (const version of ['3', 'two']) {
      const mount = await t.request('POST', 'sys/mounts/bad', { body: { type: 'kv', options: { version } } });
      assert.equal(mount.status, 400, `mount with version ${version}`);
    }
    await t.request('POST', 'sys/mounts/tr', { body: { type: 'transit' } });
    const other = await t.request('POST', 'sys/mounts/tr/tune', { body: { options: { version: '2' } } });
    assert.equal(other.status, 400);
  });

  it('refuses to upgrade a v1 mount holding keys where version 2 keeps its own records', async () => {
    for (const key of ['metadata/x', 'versions/y/1', 'config', 'upgrading']) {
      const mount = `clash${key.replace(/\W/g, '')}`;
      await t.request('POST', `sys/mounts/${mount}`, { body: { type: 'kv' } });
      await t.request('POST', `${mount}/${key}`, { body: { v: '1' } });
      const tune = await t.request('POST', `sys/mounts/${mount}/tune`, { body: { options: { version: '2' } } });
      assert.equal(tune.status, 400, key);
      assert.match(tune.body.errors[0], /cannot upgrade/, key);
      assert.deepEqual((await t.request('GET', `${mount}/${key}`)).body.data, { v: '1' }, 'still v1, data intact');
    }
  });
});
