import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 32: a root (EC P-384) on one mount signs an intermediate (Ed25519) generated on another,
// which issues leaves (RSA); OpenSSL, independent of Ward, validates the chain and reads the CRLs,
// which anyone may fetch without a token.

describe('PKI chains, formats and CRLs checked with openssl', () => {
  let t: TestServer;
  const dir = mkdtempSync(join(tmpdir(), 'ward-pki-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text.endsWith('\n') ? text : `${text}\n`);
    return path;
  };
  const openssl = (...args: string[]) => spawnSync('openssl', args, { encoding: 'utf8' });
  /** For openssl commands that talk to the server: a synchronous child would block the server's event loop. */
  const opensslAsync = async (...args: string[]) => {
    try {
      return await promisify(execFile)('openssl', args, { encoding: 'utf8' });
    } catch (err) {
      return err as { stdout: string; stderr: string };
    }
  };
  /** The `data` of a request that must answer 2xx. */
  const ok = async (method: string, path: string, body?: unknown) => (await t.ok(method, path, body))?.data;
  let rootPem: string;
  let intPem: string;

  before(async () => {
    t = await startTestServer();
    await ok('POST', 'sys/mounts/pki', { type: 'pki', config: { max_lease_ttl: '87600h' } });
    await ok('POST', 'sys/mounts/pki_int', { type: 'pki', config: { max_lease_ttl: '43800h' } });
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds root → intermediate → leaf, which openssl verify accepts', async () => {
    const root = await ok('POST', 'pki/root/generate/internal', {
      common_name: 'Ward Root',
      key_type: 'ec',
      key_bits: 384,
      ttl: '87600h',
      issuer_name: 'root-2026',
    });
    rootPem = root.certificate;
    assert.equal(new X509Certificate(rootPem).publicKey.asymmetricKeyDetails?.namedCurve, 'secp384r1');
    const csr = await ok('POST', 'pki_int/intermediate/generate/internal', {
      common_name: 'Ward Intermediate',
      key_type: 'ed25519',
    });
    assert.match(openssl('req', '-noout', '-verify', '-in', file('int.csr', csr.csr)).stderr, /verify OK/i);
    const signed = await ok('POST', 'pki/root/sign-intermediate', {
      csr: csr.csr,
      common_name: 'Ward Intermediate',
      ttl: '43800h',
    });
    intPem = signed.certificate;
    assert.deepEqual(signed.ca_chain, [rootPem]);
    const set = await ok('POST', 'pki_int/intermediate/set-signed', { certificate: `${intPem}\n${rootPem}` });
    assert.equal(set.imported_issuers.length, 2, 'the intermediate and its root, as issuers');
    assert.equal(set.mapping[set.imported_issuers[0]], csr.key_id, 'the intermediate found its key');

    await ok('POST', 'pki_int/roles/web', {
      allowed_domains: 'example.com',
      allow_subdomains: true,
      max_ttl: '72h',
      key_type: 'rsa',
    });
    const leaf = await ok('POST', 'pki_int/issue/web', { common_name: 'www.example.com', ttl: '24h' });
    assert.deepEqual(leaf.ca_chain, [intPem, rootPem]);
    const verified = openssl(
      'verify',
      '-CAfile',
      file('root.pem', rootPem),
      '-untrusted',
      file('int.pem', intPem),
      file('leaf.pem', leaf.certificate),
    );
    assert.equal(verified.stdout.trim(), `${join(dir, 'leaf.pem')}: OK`, verified.stderr);
    const served = await t.request('GET', 'pki_int/ca_chain', { token: null });
    assert.equal(served.status, 200);
    assert.equal(String(served.body).trim(), `${intPem}\n${rootPem}`);
    assert.ok(
      !openssl('verify', '-CAfile', file('int-only.pem', intPem), file('leaf2.pem', leaf.certificate)).stdout.includes(
        ': OK',
      ),
      'an intermediate alone is not a trust anchor (the check can fail)',
    );
  });

  it('answers der and pem_bundle formats and PKCS#8 keys', async () => {
    const der = await ok('POST', 'pki_int/issue/web', {
      common_name: 'der.example.com',
      format: 'der',
      private_key_format: 'pkcs8',
    });
    const cert = new X509Certificate(Buffer.from(der.certificate, 'base64'));
    assert.equal(cert.subject, 'CN=der.example.com');
    assert.equal(
      execFileSync('openssl', ['pkey', '-inform', 'DER', '-noout', '-text'], {
        input: Buffer.from(der.private_key, 'base64'),
      })
        .toString()
        .includes('Private-Key'),
      true,
    );
    const bundle = await ok('POST', 'pki_int/issue/web', { common_name: 'bundle.example.com', format: 'pem_bundle' });
    assert.match(bundle.certificate, /BEGIN RSA PRIVATE KEY[\s\S]+BEGIN CERTIFICATE[\s\S]+BEGIN CERTIFICATE/);
    const pkcs8 = await ok('POST', 'pki_int/issue/web', { common_name: 'p8.example.com', private_key_format: 'pkcs8' });
    assert.match(pkcs8.private_key, /^-----BEGIN PRIVATE KEY-----/);
  });

  it('lists a revoked serial on the CRL anyone can fetch, and openssl then refuses the certificate', async () => {
    const leaf = await ok('POST', 'pki_int/issue/web', { common_name: 'revoked.example.com' });
    const revoked = await ok('POST', 'pki_int/revoke', { serial_number: leaf.serial_number });
    assert.equal(revoked.state, 'revoked');
    const crlPem = await t.request('GET', 'pki_int/crl/pem', { token: null });
    assert.equal(crlPem.status, 200);
    const text = openssl('crl', '-noout', '-text', '-in', file('int.crl', String(crlPem.body))).stdout;
    assert.ok(text.toUpperCase().includes(leaf.serial_number.replaceAll(':', '').toUpperCase()), text);
    assert.match(text, /CRL Number: \n?\s*[0-9]+/);
    const der = await fetch(`${t.url}/v1/pki_int/crl`);
    assert.equal(der.headers.get('content-type'), 'application/pkix-crl');
    const fromDer = execFileSync('openssl', ['crl', '-inform', 'DER', '-noout', '-text'], {
      input: Buffer.from(await der.arrayBuffer()),
    }).toString();
    assert.ok(fromDer.toUpperCase().includes(leaf.serial_number.replaceAll(':', '').toUpperCase()));
    const chain = file('chain-crl.pem', `${intPem}\n${rootPem}`);
    const rootCrl = await t.request('GET', 'pki/crl/pem', { token: null });
    const crls = file('crls.pem', `${String(crlPem.body)}\n${String(rootCrl.body)}`);
    const check = openssl(
      'verify',
      '-crl_check_all',
      '-CAfile',
      chain,
      '-CRLfile',
      crls,
      file('rev.pem', leaf.certificate),
    );
    assert.match(check.stdout + check.stderr, /certificate revoked/);
    const fine = await ok('POST', 'pki_int/issue/web', { common_name: 'fine.example.com' });
    const good = openssl(
      'verify',
      '-crl_check_all',
      '-CAfile',
      chain,
      '-CRLfile',
      crls,
      file('fine.pem', fine.certificate),
    );
    assert.match(good.stdout, /: OK/, good.stderr);
    const listed = await ok('LIST', 'pki_int/certs/revoked');
    assert.deepEqual(listed.keys, [leaf.serial_number]);
    const rotated = await ok('GET', 'pki_int/crl/rotate');
    assert.equal(rotated.success, true);
  });

  it('answers openssl ocsp: good, then revoked after revoke (POST and GET, no token)', async () => {
    const leaf = await ok('POST', 'pki_int/issue/web', { common_name: 'ocsp.example.com' });
    const args = (cert: string) => [
      'ocsp',
      '-issuer',
      file('ocsp-int.pem', intPem),
      '-cert',
      file(cert, leaf.certificate),
      '-url',
      `${t.url}/v1/pki_int/ocsp`,
      '-CAfile',
      file('ocsp-chain.pem', `${intPem}\n${rootPem}`),
    ];
    const before = await opensslAsync(...args('ocsp-leaf.pem'));
    assert.match(before.stdout, /ocsp-leaf\.pem: good/, before.stdout + before.stderr);
    assert.match(before.stderr + before.stdout, /Response verify OK/);
    await ok('POST', 'pki_int/revoke', { serial_number: leaf.serial_number });
    const afterRevoke = await opensslAsync(...args('ocsp-leaf2.pem'));
    assert.match(afterRevoke.stdout, /ocsp-leaf2\.pem: revoked/, afterRevoke.stdout + afterRevoke.stderr);
    const request = join(dir, 'req.der');
    openssl(
      'ocsp',
      '-issuer',
      join(dir, 'ocsp-int.pem'),
      '-cert',
      join(dir, 'ocsp-leaf.pem'),
      '-no_nonce',
      '-reqout',
      request,
    );
    const der = execFileSync('cat', [request]);
    const viaGet = await fetch(`${t.url}/v1/pki_int/ocsp/${encodeURIComponent(der.toString('base64'))}`);
    assert.equal(viaGet.headers.get('content-type'), 'application/ocsp-response');
    const responseFile = join(dir, 'resp.der');
    writeFileSync(responseFile, Buffer.from(await viaGet.arrayBuffer()));
    const text = openssl('ocsp', '-respin', responseFile, '-resp_text', '-noverify').stdout;
    assert.match(text, /Cert Status: revoked/);
  });

  it('writes permitted_dns_domains as name constraints openssl enforces, and cross-signs an existing key', async () => {
    await ok('POST', 'sys/mounts/pki_nc', { type: 'pki', config: { max_lease_ttl: '8760h' } });
    const root = await ok('POST', 'pki_nc/root/generate/internal', {
      common_name: 'Constrained Root',
      ttl: '8760h',
      permitted_dns_domains: 'allowed.test',
    });
    const text = openssl('x509', '-noout', '-text', '-in', file('nc-root.pem', root.certificate)).stdout;
    assert.match(text, /X509v3 Name Constraints: critical\s+Permitted:\s+DNS:allowed\.test/);
    await ok('POST', 'pki_nc/roles/any', { allow_any_name: true });
    const inside = await ok('POST', 'pki_nc/issue/any', { common_name: 'www.allowed.test', ttl: '1h' });
    const outside = await ok('POST', 'pki_nc/issue/any', { common_name: 'www.elsewhere.test', ttl: '1h' });
    assert.match(
      openssl('verify', '-CAfile', join(dir, 'nc-root.pem'), file('nc-in.pem', inside.certificate)).stdout,
      /: OK/,
    );
    const refused = openssl('verify', '-CAfile', join(dir, 'nc-root.pem'), file('nc-out.pem', outside.certificate));
    assert.match(refused.stdout + refused.stderr, /permitted subtree violation/);

    const cross = await ok('POST', 'pki_nc/intermediate/cross-sign', {
      common_name: 'Constrained Root',
      key_ref: root.key_id,
    });
    assert.equal(cross.key_id, root.key_id, 'a CSR for the root’s own key');
    const signed = await ok('POST', 'pki/root/sign-intermediate', {
      csr: cross.csr,
      use_csr_values: true,
      ttl: '100h',
    });
    const crossCert = new X509Certificate(signed.certificate);
    assert.equal(
      crossCert.publicKey.export({ format: 'pem', type: 'spki' }),
      new X509Certificate(root.certificate).publicKey.export({ format: 'pem', type: 'spki' }),
    );
    assert.match(
      openssl('verify', '-CAfile', join(dir, 'root.pem'), file('cross.pem', signed.certificate)).stdout,
      /: OK/,
    );
  });

  it('signs CSRs with a role, verbatim, and refuses a CSR key type the role does not allow', async () => {
    const key = join(dir, 'csr.key');
    execFileSync('openssl', [
      'req',
      '-new',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-subj',
      '/CN=csr.example.com/O=Ward',
      '-out',
      join(dir, 'csr.pem'),
    ]);
    const csr = execFileSync('cat', [join(dir, 'csr.pem')]).toString();
    const signed = await ok('POST', 'pki_int/sign/web', { csr });
    assert.equal(new X509Certificate(signed.certificate).subject, 'CN=csr.example.com');
    const verbatim = await ok('POST', 'pki_int/sign-verbatim', { csr, ttl: '1h' });
    assert.equal(
      new X509Certificate(verbatim.certificate).subject,
      'CN=csr.example.com\nO=Ward',
      'the CSR subject as it is',
    );
    await ok('POST', 'pki_int/roles/ec-only', { allow_any_name: true, key_type: 'ec' });
    assert.equal((await t.request('POST', 'pki_int/sign/ec-only', { body: { csr } })).status, 400);
    const withKey = await ok('POST', 'pki_int/revoke-with-key', {
      serial_number: signed.serial_number,
      private_key: execFileSync('cat', [key]).toString(),
    });
    assert.equal(withKey.state, 'revoked');
  });
});
