import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { createSoftHsm, SOFTHSM_LIBRARY, softHsmManagedKey } from '../src/sys/kms/softhsm.testing.js';

// Issue 32: PKI CA keys held as managed keys (root/generate/kms, intermediate/generate/kms,
// keys/generate/kms) sign certificates, CRLs and OCSP answers inside SoftHSM; openssl checks them.

const execFileAsync = promisify(execFile);
const hsm = createSoftHsm();
const token = hsm.addToken('ward-pki', '1234');

describe('pki with managed keys', () => {
  let t: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'ward-pki-kms-'));
  const pkcs11 = (label: string, o: Record<string, unknown>) =>
    softHsmManagedKey(token, label, { any_mount: true, ...o });
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  before(async () => {
    t = await startTestServer({ kmsLibraries: new Map([['softhsm', SOFTHSM_LIBRARY]]) });
    await t.ok(
      'POST',
      'sys/managed-keys/pkcs11/root-ec',
      pkcs11('pki-root-ec', { mechanism: '0x1041', curve: 'P256' }),
    );
    await t.ok(
      'POST',
      'sys/managed-keys/pkcs11/int-rsa',
      pkcs11('pki-int-rsa', { mechanism: '0x0001', key_bits: 2048 }),
    );
    await t.ok('POST', 'sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '87600h' } });
    await t.ok('POST', 'sys/mounts/pki_int', { type: 'pki', config: { max_lease_ttl: '87600h' } });
  });
  after(async () => {
    await t.stop();
    hsm.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a root and an intermediate whose keys stay in the HSM; openssl verifies the chain, the CRL and OCSP', async () => {
    const root = await t.ok('POST', 'pki/root/generate/kms', {
      common_name: 'HSM Root',
      managed_key_name: 'root-ec',
      ttl: '8760h',
    });
    assert.equal(root.data.private_key, undefined, 'a managed key is never answered');
    const key = await t.ok('GET', `pki/key/${root.data.key_id}`);
    const managed = await t.ok('GET', 'sys/managed-keys/pkcs11/root-ec');
    assert.equal(key.data.managed_key_id, managed.UUID);
    assert.equal(key.data.key_type, 'ec');
    const rootPem = root.data.certificate as string;
    // The certificate's key is the HSM's public key.
    const hsmPublic = createPublicKey(key.data.public_key).export({ format: 'der', type: 'spki' });
    const certPublic = createPublicKey(rootPem).export({ format: 'der', type: 'spki' });
    assert.deepEqual(certPublic, hsmPublic);
    await t.ok('POST', 'pki/config/urls', { ocsp_servers: `${t.url}/v1/pki/ocsp` });

    const csr = await t.ok('POST', 'pki_int/intermediate/generate/kms', {
      common_name: 'HSM Intermediate',
      managed_key_name: 'int-rsa',
    });
    const csrText = execFileSync('openssl', ['req', '-noout', '-verify', '-text'], {
      input: csr.data.csr,
      stdio: ['pipe', 'pipe', 'pipe'],
    }).toString();
    assert.match(csrText, /HSM Intermediate/);
    const signed = await t.ok('POST', 'pki/root/sign-intermediate', {
      csr: csr.data.csr,
      common_name: 'HSM Intermediate',
      ttl: '4380h',
    });
    await t.ok('POST', 'pki_int/intermediate/set-signed', { certificate: signed.data.certificate });
    await t.ok('POST', 'pki_int/roles/web', { allow_any_name: true, key_type: 'ec', key_bits: 256 });
    const leaf = await t.ok('POST', 'pki_int/issue/web', { common_name: 'app.example', ttl: '24h' });
    const rootFile = file('root.pem', rootPem);
    const intFile = file('int.pem', signed.data.certificate);
    const leafFile = file('leaf.pem', leaf.data.certificate);
    const verified = execFileSync('openssl', ['verify', '-CAfile', rootFile, '-untrusted', intFile, leafFile]);
    assert.match(verified.toString(), /leaf\.pem: OK/);

    await t.ok('POST', 'pki_int/revoke', { serial_number: leaf.data.serial_number });
    const crl = await t.ok('GET', 'pki_int/cert/crl');
    const crlFile = file('int.crl', crl.data.certificate);
    const crlText = execFileSync('openssl', ['crl', '-in', crlFile, '-CAfile', intFile, '-noout', '-text'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    }).toString();
    assert.match(crlText, new RegExp(leaf.data.serial_number.replaceAll(':', '').toUpperCase()));
    const crlCheck = execFileSync('openssl', ['crl', '-in', crlFile, '-CAfile', intFile, '-noout'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    assert.ok(crlCheck !== undefined);

    // OCSP for the intermediate, answered by the root's responder and signed in the HSM.
    // The server runs in this process: openssl must not block its event loop while it asks.
    const { stdout: ocsp } = await execFileAsync(
      'openssl',
      ['ocsp', '-issuer', rootFile, '-cert', intFile, '-url', `${t.url}/v1/pki/ocsp`, '-CAfile', rootFile],
      { timeout: 20_000 },
    );
    assert.match(ocsp, /int\.pem: good/);
  });

  it('adds a managed key with keys/generate/kms once, and refuses a kms request naming none or both', async () => {
    const first = await t.ok('POST', 'pki/keys/generate/kms', { managed_key_name: 'int-rsa', key_name: 'hsm' });
    const again = await t.ok('POST', 'pki/keys/generate/kms', { managed_key_name: 'int-rsa' });
    assert.equal(again.data.key_id, first.data.key_id);
    assert.equal(first.data.key_type, 'rsa');
    const none = await t.request('POST', 'pki/root/generate/kms', { body: { common_name: 'x' } });
    assert.equal(none.status, 400);
    const both = await t.request('POST', 'pki/root/generate/kms', {
      body: { common_name: 'x', managed_key_name: 'int-rsa', managed_key_id: 'y' },
    });
    assert.equal(both.status, 400);
    const missing = await t.request('POST', 'pki/root/generate/kms', {
      body: { common_name: 'x', managed_key_name: 'nope' },
    });
    assert.equal(missing.status, 400);
  });
});
