import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenIndexPrefix } from '../src/core/expiration/lease.js';
import { advance, createTestManager, type TestManager, testAccessorDigest } from '../src/core/expiration/testing.js';
import { type Backend, createBackend } from '../src/framework/index.js';
import { InvalidRequestError, NotFoundError } from '../src/logical/errors.js';
import type { Operation } from '../src/logical/request.js';
import { InmemStorage } from '../src/storage/index.js';
import { LEASES_ROOT_PATHS, pathLeases } from '../src/sys/path-leases.js';

interface Harness extends TestManager {
  backend: Backend;
  call(operation: Operation, path: string, data?: Record<string, unknown>): ReturnType<Backend['handle']>;
  lease(path: string, ttlSeconds: number, options?: { maxTtlSeconds?: number; renewable?: boolean }): Promise<string>;
}

async function harness(): Promise<Harness> {
  const t = await createTestManager();
  const backend = createBackend({
    type: 'system',
    storage: new InmemStorage(),
    help: 'System endpoints.',
    paths: pathLeases(t.manager),
    specialPaths: { root: [...LEASES_ROOT_PATHS] },
  });
  let n = 0;
  return {
    ...t,
    backend,
    call: (operation, path, data = {}) =>
      backend.handle({ id: `req-${n++}`, operation, path, data, mountPoint: 'sys/', remoteAddress: '127.0.0.1' }),
    lease: (path, ttlSeconds, options = {}) =>
      t.manager.register({ path, ttlSeconds, renewable: options.renewable ?? true, kind: 'secret', ...options }),
  };
}

describe('sys/leases/lookup', () => {
  it('shows a lease with RFC 3339 times and the seconds left', async () => {
    const h = await harness();
    const id = await h.lease('database/creds/readonly', 3600);
    await advance(h, 600_000);
    const res = await h.call('update', 'leases/lookup', { lease_id: id });
    assert.deepEqual(res?.data, {
      id,
      issue_time: '2024-01-01T00:00:00Z',
      expire_time: '2024-01-01T01:00:00Z',
      last_renewal: null,
      renewable: true,
      ttl: 3000,
    });
  });

  it('answers 400 "invalid lease" for an unknown id and "lease_id must be specified" without one', async () => {
    const h = await harness();
    await assert.rejects(h.call('update', 'leases/lookup', { lease_id: 'nope/abc' }), {
      name: InvalidRequestError.name,
      message: 'invalid lease',
    });
    await assert.rejects(h.call('update', 'leases/lookup', {}), { message: 'lease_id must be specified' });
  });

  it('lists next segments and lease suffixes; an empty prefix is a 404', async () => {
    const h = await harness();
    const id = await h.lease('database/creds/readonly', 60);
    await h.lease('database/creds/admin', 60);
    assert.deepEqual((await h.call('list', 'leases/lookup/'))?.data, { keys: ['database/'] });
    assert.deepEqual((await h.call('list', 'leases/lookup/database/creds/'))?.data, { keys: ['admin/', 'readonly/'] });
    const suffix = id.slice('database/creds/readonly/'.length);
    assert.deepEqual((await h.call('list', 'leases/lookup/database/creds/readonly/'))?.data, { keys: [suffix] });
    await assert.rejects(h.call('list', 'leases/lookup/aws/'), NotFoundError);
  });
});

describe('sys/leases/renew', () => {
  it('renews through the body, the URL and the legacy path, answering with the lease fields', async () => {
    const h = await harness();
    const id = await h.lease('database/creds/readonly', 60);
    for (const [path, data] of [
      ['leases/renew', { lease_id: id, increment: '1h' }],
      [`leases/renew/${id}`, { increment: 3600 }],
      ['renew', { lease_id: id, increment: 3600 }],
      [`renew/${id}`, { increment: '3600s' }],
    ] as const) {
      const res = await h.call('update', path, data);
      assert.deepEqual(res?.lease, { leaseId: id, leaseDurationSeconds: 3600, renewable: true }, path);
    }
  });

  it('warns when the max TTL caps the renewal', async () => {
    const h = await harness();
    const id = await h.lease('database/creds/readonly', 60, { maxTtlSeconds: 120 });
    const res = await h.call('update', 'leases/renew', { lease_id: id, increment: 3600 });
    assert.equal(res?.lease?.leaseDurationSeconds, 120);
    assert.deepEqual(res?.warnings, [
      'TTL of "1h0m0s" exceeded the effective max_ttl of "2m0s"; TTL value is capped accordingly',
    ]);
  });

  it('refuses with the established messages', async () => {
    const h = await harness();
    await assert.rejects(h.call('update', 'leases/renew', {}), { message: 'lease_id must be specified' });
    await assert.rejects(h.call('update', 'leases/renew', { lease_id: 'x/y' }), { message: 'lease not found' });
    const fixed = await h.lease('database/creds/fixed', 60, { renewable: false });
    await assert.rejects(h.call('update', 'leases/renew', { lease_id: fixed }), { message: 'lease is not renewable' });
    const token = await h.manager.register({
      path: 'auth/token/create',
      ttlSeconds: 60,
      renewable: true,
      kind: 'token',
      tokenAccessor: 'acc',
    });
    await assert.rejects(h.call('update', `leases/renew/${token}`, {}), {
      message: 'tokens cannot be renewed through this endpoint',
    });
  });
});

describe('sys/leases/revoke', () => {
  it('revokes synchronously (204) or in the background with sync=false (202)', async () => {
    const h = await harness();
    const a = await h.lease('database/creds/readonly', 60);
    const b = await h.lease('database/creds/readonly', 60);
    assert.equal(await h.call('update', 'leases/revoke', { lease_id: a }), undefined);
    assert.deepEqual(h.revoker.revokedIds, [a]);
    assert.deepEqual(await h.call('update', `revoke/${b}`, { sync: false }), { status: 202 });
    await h.manager.settled();
    assert.deepEqual(h.revoker.revokedIds, [a, b]);
    await assert.rejects(h.call('update', 'revoke', {}), { message: 'lease_id must be specified' });
  });

  it('revokes by prefix, and force-revokes leases whose backend fails', async () => {
    const h = await harness();
    const ok = await h.lease('database/creds/readonly', 60);
    const broken = await h.lease('database/creds/readonly', 60);
    const other = await h.lease('aws/creds/s3', 60);
    h.revoker.failNext(broken, 100);
    await assert.rejects(h.call('update', 'leases/revoke-prefix/database/'), InvalidRequestError);
    assert.deepEqual(
      h.revoker.revokedIds,
      [ok].filter((id) => id < broken),
    );
    assert.equal(await h.call('update', 'leases/revoke-force/database/creds'), undefined);
    assert.deepEqual(h.manager.list(''), ['aws/']);
    assert.deepEqual(await h.call('update', 'revoke-prefix/aws', { sync: false }), { status: 202 });
    await h.manager.settled();
    assert.ok(h.revoker.revokedIds.includes(other));
    await h.lease('pki/issue/web', 60);
    assert.equal(await h.call('update', 'revoke-force/pki/issue/web'), undefined);
    assert.equal(h.manager.count().total, 0);
  });
});

describe('sys/leases/count', () => {
  it('counts all leases, or only the irrevocable ones', async () => {
    const h = await harness();
    await h.lease('database/creds/readonly', 60);
    assert.deepEqual((await h.call('read', 'leases/count'))?.data, { lease_count: 1 });
    assert.deepEqual((await h.call('read', 'leases/count', { type: 'irrevocable' }))?.data, { lease_count: 0 });
  });
});

describe('sys/leases/tidy', () => {
  it('answers 202 with a warning and removes index entries of vanished leases', async () => {
    const h = await harness();
    const id = await h.manager.register({
      path: 'database/creds/readonly',
      ttlSeconds: 60,
      renewable: true,
      kind: 'secret',
      tokenAccessor: 'acc1',
    });
    const index = tokenIndexPrefix(testAccessorDigest('acc1'));
    await h.storage.put(`${index}0000`, new TextEncoder().encode(JSON.stringify('database/creds/gone/x')));
    const res = await h.call('update', 'leases/tidy');
    assert.equal(res?.status, 202);
    assert.equal(res?.warnings?.length, 1);
    assert.equal((await h.storage.list(index)).length, 1);
    assert.ok(h.manager.lookup(id));
  });
});

describe('sys/leases root paths', () => {
  it('marks listing and prefix revocation as sudo-only', async () => {
    const h = await harness();
    assert.deepEqual(h.backend.specialPaths.root, [
      'leases/lookup/*',
      'leases/revoke-prefix/*',
      'leases/revoke-force/*',
      'revoke-prefix/*',
      'revoke-force/*',
    ]);
  });
});
