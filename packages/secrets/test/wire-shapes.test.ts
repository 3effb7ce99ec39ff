import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type RekeyResult, shapeDrift, WIRE_SHAPES, type WireShape, wireShape } from '@ward/secrets-client';
import { request, startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 30 point 5: the wire types of `@ward/secrets-client` are the one source of the server's
// answers. The server builds them typed by those types (a change on either side fails the build);
// this test compares real answers with each type's key list, which catches keys the server adds
// through spreads and keys it leaves out at run time.

/** Fails unless `answer` carries every required key of `shape` and no key the type does not declare. */
function assertShape(shape: WireShape, answer: unknown, where: string): void {
  assert.ok(answer !== null && typeof answer === 'object', `${where}: an object, not ${JSON.stringify(answer)}`);
  assert.deepEqual(shapeDrift(shape, answer), { missing: [], undeclared: [] }, `${where} as ${shape.name}`);
}

describe('wire shapes', () => {
  it('names the keys an answer lacks and the keys its type does not declare', () => {
    const answer = { nonce: 'n', complete: true, keys: [], keys_base64: [], verification_required: false, extra: 1 };
    assert.deepEqual(shapeDrift(WIRE_SHAPES.rekeyResult, answer), {
      missing: ['pgp_fingerprints', 'backup'],
      undeclared: ['extra'],
    });
  });

  it('refuses at compile time a key list that misses a key of its type', () => {
    const R = 'required';
    const partial = { nonce: R, complete: R, keys: R, keys_base64: R, verification_required: R } as const;
    // @ts-expect-error `pgp_fingerprints` and `backup` are missing: the list cannot drift from the type.
    const shape = wireShape<RekeyResult>('RekeyResult', partial);
    assert.deepEqual(shape.required, Object.keys(partial));
  });
});

describe('the server answers in the wire types', () => {
  let t: TestServer;
  let keys: string[];
  let root: string;
  const call = async (shape: WireShape, method: string, path: string, body?: unknown, token?: string) => {
    const res = await request(t.url, method, path, { body, token });
    assertShape(shape, res.body, `${method} ${path} (${res.status})`);
    return res.body;
  };

  before(async () => {
    t = await startTestServer({ uninitialized: true });
  });
  after(() => t.stop());

  it('init, seal status, unseal, health and leader', async () => {
    await call(WIRE_SHAPES.initStatus, 'GET', 'sys/init');
    await call(WIRE_SHAPES.sealStatus, 'GET', 'sys/seal-status');
    await call(WIRE_SHAPES.health, 'GET', 'sys/health');
    const init = await call(WIRE_SHAPES.initResponse, 'PUT', 'sys/init', { secret_shares: 3, secret_threshold: 2 });
    keys = init.keys;
    root = init.root_token;
    for (const key of keys.slice(0, 2)) await call(WIRE_SHAPES.sealStatus, 'PUT', 'sys/unseal', { key });
    const unsealed = await call(WIRE_SHAPES.sealStatus, 'GET', 'sys/seal-status');
    assert.equal(unsealed.sealed, false);
    assert.ok(unsealed.cluster_id, 'the optional cluster fields are compared too once present');
    await call(WIRE_SHAPES.health, 'GET', 'sys/health');
    await call(WIRE_SHAPES.leader, 'GET', 'sys/leader');
    const ha = await request(t.url, 'GET', 'sys/ha-status', { token: root });
    assert.equal(ha.status, 200);
    assert.ok(ha.body.data.nodes.length > 0);
    for (const node of ha.body.data.nodes) assertShape(WIRE_SHAPES.haNode, node, 'sys/ha-status node');
  });

  it('the envelope, its auth block and its wrap info', async () => {
    const created = await call(WIRE_SHAPES.secret, 'PUT', 'auth/token/create', { policies: ['default'] }, root);
    assertShape(WIRE_SHAPES.secretAuth, created.auth, 'auth/token/create auth');
    const res = await request(t.url, 'PUT', 'auth/token/create', {
      body: { policies: ['default'] },
      token: root,
      headers: { 'X-Vault-Wrap-TTL': '60s' },
    });
    assertShape(WIRE_SHAPES.secret, res.body, 'wrapped auth/token/create');
    assertShape(WIRE_SHAPES.wrapInfo, res.body.wrap_info, 'wrapped auth/token/create wrap_info');
    assert.ok(res.body.wrap_info.wrapped_accessor, 'the optional wrapped_accessor is compared too');
    const lookup = await call(WIRE_SHAPES.secret, 'GET', 'auth/token/lookup-self', undefined, root);
    assert.equal(lookup.data.id, root);
    assertShape(WIRE_SHAPES.tokenLookup, lookup.data, 'lookup-self data');
    const child = created.auth.client_token;
    await request(t.url, 'PUT', 'auth/token/renew-self', { token: child });
    const renewed = await call(WIRE_SHAPES.secret, 'PUT', 'auth/token/lookup', { token: child }, root);
    assert.ok(renewed.data.last_renewal, 'the optional renewal fields are compared too');
    assertShape(WIRE_SHAPES.tokenLookup, renewed.data, 'lookup data of a renewed token');
  });

  it('mounts and auth methods', async () => {
    for (const table of ['sys/mounts', 'sys/auth']) {
      const res = await request(t.url, 'GET', table, { token: root });
      assert.equal(res.status, 200);
      for (const [path, mount] of Object.entries(res.body.data)) {
        assertShape(WIRE_SHAPES.mountInfo, mount, `${table} ${path}`);
        assertShape(WIRE_SHAPES.mountConfig, (mount as { config: object }).config, `${table} ${path} config`);
      }
    }
    const one = await request(t.url, 'GET', 'sys/mounts/secret', { token: root });
    assertShape(WIRE_SHAPES.mountInfo, one.body.data, 'sys/mounts/secret data');
  });

  it('KV version 2 writes, reads, metadata and a deleted version', async () => {
    const mounted = await request(t.url, 'PUT', 'sys/mounts/kv2', {
      body: { type: 'kv', options: { version: '2' } },
      token: root,
    });
    assert.equal(mounted.status, 204);
    const write = async () => request(t.url, 'PUT', 'kv2/data/app', { body: { data: { v: '1' } }, token: root });
    let written = await write();
    // A new version 2 mount may still be setting up its storage.
    for (let i = 0; i < 20 && written.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      written = await write();
    }
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assertShape(WIRE_SHAPES.kvVersionMetadata, written.body.data, 'kv2/data/app write');
    const read = await call(WIRE_SHAPES.secret, 'GET', 'kv2/data/app', undefined, root);
    assertShape(WIRE_SHAPES.kvV2Data, read.data, 'kv2/data/app read');
    assertShape(WIRE_SHAPES.kvVersionMetadata, read.data.metadata, 'kv2/data/app read metadata');
    const meta = await call(WIRE_SHAPES.secret, 'GET', 'kv2/metadata/app', undefined, root);
    assertShape(WIRE_SHAPES.kvMetadata, meta.data, 'kv2/metadata/app');
    assert.equal((await request(t.url, 'DELETE', 'kv2/data/app', { token: root })).status, 204);
    const deleted = await request(t.url, 'GET', 'kv2/data/app', { token: root });
    assert.equal(deleted.status, 404);
    assertShape(WIRE_SHAPES.kvV2Data, deleted.body.data, 'kv2/data/app read after delete');
    assertShape(WIRE_SHAPES.kvVersionMetadata, deleted.body.data.metadata, 'deleted version metadata');
  });

  it('help of a declared path and of a route the HTTP layer answers', async () => {
    await call(WIRE_SHAPES.help, 'GET', 'sys/policies/acl?help=1', undefined, root);
    await call(WIRE_SHAPES.help, 'GET', 'sys/health?help=1', undefined, root);
  });

  it('rekey with verification', async () => {
    await call(WIRE_SHAPES.rekeyStatus, 'GET', 'sys/rekey/init', undefined, root);
    const start = { secret_shares: 3, secret_threshold: 2, require_verification: true };
    const { nonce } = await call(WIRE_SHAPES.rekeyStatus, 'PUT', 'sys/rekey/init', start, root);
    await call(WIRE_SHAPES.rekeyStatus, 'PUT', 'sys/rekey/update', { key: keys[0], nonce }, root);
    const done = await call(WIRE_SHAPES.rekeyResult, 'PUT', 'sys/rekey/update', { key: keys[1], nonce }, root);
    assert.equal(done.complete, true);
    await call(WIRE_SHAPES.rekeyVerifyStatus, 'GET', 'sys/rekey/verify', undefined, root);
    const verifyNonce = done.verification_nonce;
    const first = { key: done.keys[0], nonce: verifyNonce };
    await call(WIRE_SHAPES.rekeyVerifyStatus, 'PUT', 'sys/rekey/verify', first, root);
    const second = { key: done.keys[1], nonce: verifyNonce };
    const verified = await call(WIRE_SHAPES.rekeyVerifyResult, 'PUT', 'sys/rekey/verify', second, root);
    assert.equal(verified.complete, true);
    keys = done.keys;
  });

  it('generate-root', async () => {
    await call(WIRE_SHAPES.generateRootStatus, 'GET', 'sys/generate-root/attempt', undefined, root);
    const otp = 'BMjzW3wAsEzINXCM05Wbas3u9zSl';
    const { nonce } = await call(WIRE_SHAPES.generateRootStatus, 'PUT', 'sys/generate-root/attempt', { otp }, root);
    await call(WIRE_SHAPES.generateRootStatus, 'PUT', 'sys/generate-root/update', { key: keys[0], nonce }, root);
    const done = await call(
      WIRE_SHAPES.generateRootStatus,
      'PUT',
      'sys/generate-root/update',
      { key: keys[1], nonce },
      root,
    );
    assert.equal(done.complete, true);
  });
});
