import assert from 'node:assert/strict';
import { X509Certificate as NodeCert, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { cryptoRandom, FakeClock } from '@ward/base';
import { testBackend } from '../../framework/testing.js';
import { InternalError, InvalidRequestError } from '../../logical/errors.js';
import { createPkiBackend } from './backend.js';
import { x509 } from './x509.js';

// Issue 32: several issuers and keys per mount, the default issuer, imports, issuer revocation, tidy.

async function pki() {
  const clock = new FakeClock('2030-01-01T00:00:00Z');
  const t = await testBackend(createPkiBackend, { clock, random: cryptoRandom, maxLeaseTtlSeconds: 10 * 365 * 86400 });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const ok = async (path: string, body?: Record<string, unknown>): Promise<any> => (await t.write(path, body))?.data;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  const get = async (path: string): Promise<any> => (await t.read(path))?.data;
  return { t, clock, ok, get };
}

describe('pki issuers and keys', () => {
  it('keeps several issuers; the first is the default until config/issuers names another', async () => {
    const { t, ok, get } = await pki();
    const a = await ok('root/generate/internal', { common_name: 'A', issuer_name: 'a', key_type: 'ec' });
    const b = await ok('issuers/generate/root/internal', { common_name: 'B', issuer_name: 'b', key_type: 'ed25519' });
    const listed = (await t.list('issuers'))?.data as {
      keys: string[];
      key_info: Record<string, { is_default: boolean }>;
    };
    assert.deepEqual(new Set(listed.keys), new Set([a.issuer_id, b.issuer_id]));
    assert.equal(listed.key_info[a.issuer_id]?.is_default, true);
    await ok('roles/any', { allow_any_name: true });
    const fromA = await ok('issue/any', { common_name: 'x.example', ttl: '1h' });
    assert.equal(new NodeCert(fromA.certificate).issuer, 'CN=A');
    const fromB = await ok('issuer/b/issue/any', { common_name: 'x.example', ttl: '1h' });
    assert.equal(new NodeCert(fromB.certificate).issuer, 'CN=B');
    await ok('config/issuers', { default: 'b' });
    assert.equal((await get('config/issuers')).default, b.issuer_id);
    assert.equal(
      new NodeCert((await ok('issue/any', { common_name: 'y.example', ttl: '1h' })).certificate).issuer,
      'CN=B',
    );
    await ok('issuer/a', { issuer_name: 'renamed', leaf_not_after_behavior: 'truncate' });
    const renamed = await get('issuer/renamed');
    assert.deepEqual([renamed.issuer_id, renamed.leaf_not_after_behavior], [a.issuer_id, 'truncate']);
    await assert.rejects(t.write('issuer/renamed', { issuer_name: 'b' }), InvalidRequestError, 'names are unique');
    await t.delete(`issuer/${a.issuer_id}`);
    await assert.rejects(t.read(`issuer/${a.issuer_id}`), InternalError, 'as established: 500');
  });

  it('generates and imports keys, roots on an existing key, and imports a bundle with config/ca', async () => {
    const { t, ok, get } = await pki();
    const key = await ok('keys/generate/exported', { key_type: 'ec', key_bits: 384, key_name: 'k1' });
    assert.match(key.private_key, /BEGIN EC PRIVATE KEY/);
    const root = await ok('root/generate/existing', { common_name: 'On k1', key_ref: 'k1' });
    assert.equal(root.key_id, key.key_id);
    assert.equal((await get('key/k1')).key_type, 'ec');
    await assert.rejects(t.delete('key/k1'), InvalidRequestError, 'an issuer uses it');

    const other = await pki();
    const exported = await other.ok('root/generate/exported', { common_name: 'Imported' });
    const imported = await ok('config/ca', { pem_bundle: `${exported.private_key}\n${exported.certificate}` });
    assert.equal(imported.imported_issuers.length, 1);
    assert.equal(imported.imported_keys.length, 1);
    assert.equal(imported.mapping[imported.imported_issuers[0]], imported.imported_keys[0]);
    const again = await ok('issuers/import/bundle', { pem_bundle: exported.certificate });
    assert.deepEqual(again.existing_issuers, imported.imported_issuers);
    await assert.rejects(t.write('issuers/import/cert', { pem_bundle: exported.private_key }), InvalidRequestError);
    const keys = (await t.list('keys'))?.data as { keys: string[] };
    assert.equal(keys.keys.length, 2);
  });

  it('revokes an intermediate issuer onto its parent’s CRL, and stops it issuing', async () => {
    const { ok, get } = await pki();
    await ok('root/generate/internal', { common_name: 'Root', issuer_name: 'root' });
    const csr = await ok('issuers/generate/intermediate/internal', { common_name: 'Int' });
    const signed = await ok('issuer/root/sign-intermediate', { csr: csr.csr, common_name: 'Int' });
    const set = await ok('intermediate/set-signed', { certificate: signed.certificate });
    const intId = set.imported_issuers[0];
    await ok(`issuer/${intId}`, { issuer_name: 'int' });
    const revoked = await ok('issuer/int/revoke');
    assert.equal(revoked.revoked, true);
    const crl = new x509.X509Crl((await get('issuer/root/crl')).crl);
    assert.ok(crl.findRevoked(signed.serial_number.replaceAll(':', '')), 'listed on the root CRL');
    await ok('roles/any', { allow_any_name: true });
    await assert.rejects(ok('issuer/int/issue/any', { common_name: 'x.example' }), InvalidRequestError);
  });

  it('tidies expired certificates after the safety buffer, and CRL config round-trips', async () => {
    const { t, clock, ok, get } = await pki();
    await ok('root/generate/internal', { common_name: 'Root', ttl: '87600h' });
    await ok('roles/short', { allow_any_name: true, max_ttl: '1h' });
    const leaf = await ok('issue/short', { common_name: 'short.example', ttl: '1h' });
    clock.advance(2 * 3600_000);
    await ok('tidy', { tidy_cert_store: true, safety_buffer: '1h' });
    assert.equal((await get('tidy-status')).cert_store_deleted_count, 1);
    assert.equal(await t.read(`cert/${leaf.serial_number}`).catch((e) => e.code), 'not_found');
    const second = await ok('issue/short', { common_name: 'second.example', ttl: '1h' });
    await ok('config/auto-tidy', {
      enabled: true,
      interval_duration: '1h',
      tidy_cert_store: true,
      safety_buffer: '1h',
    });
    const [task] = t.backend.periodic;
    await task?.run();
    assert.ok(await t.read(`cert/${second.serial_number}`), 'not expired yet');
    clock.advance(3 * 3600_000);
    await task?.run();
    assert.equal(await t.read(`cert/${second.serial_number}`).catch((e) => e.code), 'not_found', 'tidied by itself');
    const config = await ok('config/crl', { expiry: '24h', auto_rebuild: true, enable_delta: true });
    assert.deepEqual([config.expiry, config.auto_rebuild, config.enable_delta], ['24h', true, true]);
    await assert.rejects(
      t.write('config/crl', { auto_rebuild: false }),
      InvalidRequestError,
      'delta needs auto_rebuild',
    );
    const delta = (await t.read('crl/delta/pem'))?.raw?.body as string;
    assert.match(delta, /BEGIN X509 CRL/);
    assert.ok(new X509Certificate((await get('cert/ca')).certificate).ca);
  });

  it('upgrades the single root of a mount made before issue 32 into its default issuer', async () => {
    const { t, ok, get } = await pki();
    const old = await pki();
    const exported = await old.ok('root/generate/exported', { common_name: 'Legacy' });
    const record = {
      certificate: exported.certificate,
      private_key: exported.private_key,
      serial_number: exported.serial_number,
      expiration: exported.expiration,
    };
    await t.storage.put('ca', Buffer.from(JSON.stringify(record)));
    assert.equal(((await t.read('ca/pem'))?.raw?.body as string).trim(), exported.certificate);
    await ok('roles/any', { allow_any_name: true });
    const leaf = await ok('issue/any', { common_name: 'after.example', ttl: '1h' });
    assert.ok(new NodeCert(leaf.certificate).verify(new NodeCert(exported.certificate).publicKey));
    assert.equal((await get('issuer/default')).certificate, exported.certificate);
  });
});
