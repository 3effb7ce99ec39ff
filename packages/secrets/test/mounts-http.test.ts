import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('mount tables: tune, remount', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('tunes listing visibility and allowed managed keys, and refuses unknown values', async () => {
    await t.request('POST', 'sys/mounts/tuned', { body: { type: 'kv-v2' } });
    const ok = await t.request('POST', 'sys/mounts/tuned/tune', {
      body: { listing_visibility: 'unauth', allowed_managed_keys: 'k1,k2', max_lease_ttl: '2h' },
    });
    assert.equal(ok.status, 204);
    const read = await t.request('GET', 'sys/mounts/tuned/tune');
    assert.equal(read.body.data.listing_visibility, 'unauth');
    assert.deepEqual(read.body.data.allowed_managed_keys, ['k1', 'k2']);
    assert.equal(read.body.data.max_lease_ttl, 7200);
    assert.equal(read.body.data.default_lease_ttl, 7200, 'the unset default is capped by the max');
    assert.equal((await t.request('POST', 'sys/mounts/tuned/tune', { body: { listing_visibility: 'x' } })).status, 400);
    const tooLong = await t.request('POST', 'sys/mounts/tuned/tune', { body: { default_lease_ttl: '3h' } });
    assert.deepEqual(tooLong.body, { errors: ['given default lease TTL greater than given max lease TTL'] });
    assert.equal((await t.request('GET', 'sys/mounts/nothing/tune')).status, 400);
    const options = await t.request('POST', 'sys/mounts/tuned/tune', { body: { options: { version: '2', x: 'y' } } });
    assert.equal(options.status, 204);
    assert.deepEqual((await t.request('GET', 'sys/mounts/tuned/tune')).body.data.options, { version: '2', x: 'y' });
    const downgrade = await t.request('POST', 'sys/mounts/tuned/tune', { body: { options: { version: '1' } } });
    assert.equal(downgrade.status, 400);
    assert.deepEqual(downgrade.body.errors, ['cannot downgrade mount from version 2']);
  });

  it('mounts type `generic` as the legacy name of KV version 1 (hvac’s tests use it)', async () => {
    // Issue 18: hvac's test_mount.py enables backend_type="generic".
    assert.equal((await t.request('POST', 'sys/mounts/legacy', { body: { type: 'generic' } })).status, 204);
    const mount = (await t.request('GET', 'sys/mounts')).body.data['legacy/'];
    assert.equal(mount.type, 'kv');
    assert.deepEqual(mount.options, { version: '1' });
    assert.equal((await t.request('POST', 'legacy/a', { body: { v: 1 } })).status, 204, 'a KV v1 write');
    assert.deepEqual((await t.request('GET', 'legacy/a')).body.data, { v: 1 });
  });

  // Issue 13, point 9: the built-in token method is tuned like any auth method, as established.
  it('tunes the token auth mount through sys/auth/token/tune; its tokens and listings follow, across a seal', async () => {
    const before = await t.request('GET', 'sys/auth/token/tune');
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.equal(before.body.data.default_lease_ttl, 2_764_800);
    assert.equal(before.body.data.max_lease_ttl, 2_764_800);
    assert.equal(before.body.data.token_type, 'default-service');

    const tuned = await t.request('POST', 'sys/auth/token/tune', {
      body: { default_lease_ttl: '1h', max_lease_ttl: '2h', listing_visibility: 'unauth', description: 'tokens' },
    });
    assert.equal(tuned.status, 204, JSON.stringify(tuned.body));
    const created = await t.request('POST', 'auth/token/create', { body: { policies: ['default'] } });
    assert.equal(created.body.auth.lease_duration, 3600, 'a new token takes the tuned default TTL');
    const capped = await t.request('POST', 'auth/token/create', { body: { ttl: '5h' } });
    assert.equal(capped.body.auth.lease_duration, 7200, 'and is capped by the tuned maximum');

    const refused = await t.request('POST', 'sys/auth/token/tune', { body: { token_type: 'batch' } });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors, ["'token_type' cannot be set for 'token' or 'ns_token' auth mounts"]);

    await t.request('PUT', 'sys/seal');
    await t.request('PUT', 'sys/unseal', { token: null, body: { key: t.unsealKey } });
    const after = (await t.request('GET', 'sys/auth/token/tune')).body.data;
    assert.deepEqual(
      [after.default_lease_ttl, after.max_lease_ttl, after.listing_visibility, after.description],
      [3600, 7200, 'unauth', 'tokens'],
    );
    const listed = (await t.request('GET', 'sys/auth')).body.data['token/'];
    assert.deepEqual([listed.description, listed.config.default_lease_ttl], ['tokens', 3600]);
  });

  it('lists the built-in cubbyhole/, identity/ and sys/ in sys/mounts, as established', async () => {
    // Issue 18: hvac and the established server list all three on every server.
    const mounts = (await t.request('GET', 'sys/mounts')).body.data;
    assert.deepEqual(
      ['cubbyhole/', 'identity/', 'sys/'].map((p) => [mounts[p]?.type, mounts[p]?.description]),
      [
        ['cubbyhole', 'per-token private secret storage'],
        ['identity', 'identity store'],
        ['system', 'system endpoints used for control, policy and debugging'],
      ],
    );
    assert.match(mounts['identity/'].accessor, /^identity_[0-9a-f]{8}$/);
    const tune = await t.request('POST', 'sys/mounts/identity/tune', { body: { description: 'x' } });
    assert.equal(tune.status, 400, 'built-in mounts are not tunable');
  });

  it('moves a mount with its data, and reports the move', async () => {
    await t.request('POST', 'sys/mounts/old', { body: { type: 'kv-v2' } });
    await t.request('POST', 'old/data/s', { body: { data: { kept: true } } });
    const moved = await t.request('POST', 'sys/remount', { body: { from: 'old', to: 'new/place' } });
    assert.equal(moved.status, 200);
    const id = moved.body.data.migration_id as string;
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal((await t.request('GET', 'old/data/s')).status, 404);
    assert.deepEqual((await t.request('GET', 'new/place/data/s')).body.data.data, { kept: true });
    const status = await t.request('GET', `sys/remount/status/${id}`);
    assert.deepEqual(status.body.data.migration_info, {
      source_mount: 'old/',
      target_mount: 'new/place/',
      status: 'success',
    });
    const mounts = await t.request('GET', 'sys/mounts');
    assert.ok(mounts.body.data['new/place/']);
    assert.equal(mounts.body.data['old/'], undefined);
  });

  it('refuses to move protected or missing mounts, or onto a taken path', async () => {
    assert.deepEqual((await t.request('POST', 'sys/remount', { body: { from: 'sys', to: 'x' } })).body, {
      errors: ['cannot remount "sys/"'],
    });
    assert.equal((await t.request('POST', 'sys/remount', { body: { from: 'ghost', to: 'x' } })).status, 400);
    await t.request('POST', 'sys/mounts/a1', { body: { type: 'kv' } });
    const taken = await t.request('POST', 'sys/remount', { body: { from: 'a1', to: 'secret' } });
    assert.deepEqual(taken.body, { errors: ['path is already in use at secret/'] });
    const missing = await t.request('POST', 'sys/remount', { body: { from: 'a1' } });
    assert.equal(missing.status, 400);
  });

  it('keeps a moved mount across a seal and unseal', async () => {
    await t.request('PUT', 'sys/seal');
    await t.request('PUT', 'sys/unseal', { body: { key: t.unsealKey } });
    assert.deepEqual((await t.request('GET', 'new/place/data/s')).body.data.data, { kept: true });
  });
});
