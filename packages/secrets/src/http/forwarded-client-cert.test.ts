import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { decodeForwardedCertificate } from './forwarded-client-cert.js';

async function selfSigned(): Promise<{ pem: string; der: Buffer }> {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.subtle.generateKey(alg, false, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=forwarded',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3_600_000),
    keys,
    signingAlgorithm: alg,
  });
  return { pem: cert.toString('pem'), der: Buffer.from(cert.rawData) };
}

describe('decodeForwardedCertificate', () => {
  it('applies the decoders in order: URL then BASE64 (DER inside), URL then DER (PEM), none (PEM)', async () => {
    const { pem, der } = await selfSigned();
    const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n');
    const urlB64 = decodeForwardedCertificate(encodeURIComponent(b64), ['URL', 'BASE64']);
    assert.deepEqual('der' in urlB64 && Buffer.from(urlB64.der), der);
    const urlPem = decodeForwardedCertificate(encodeURIComponent(pem), ['URL', 'DER']);
    assert.deepEqual('der' in urlPem && Buffer.from(urlPem.der), der);
    const plainPem = decodeForwardedCertificate(pem.replace(/\n/g, ' '), []);
    assert.ok('der' in plainPem);
    const b64Pem = decodeForwardedCertificate(Buffer.from(pem).toString('base64'), ['BASE64', 'DER']);
    assert.deepEqual('der' in b64Pem && Buffer.from(b64Pem.der), der);
  });

  it('names the decoder that failed, and refuses what is no certificate', () => {
    assert.match(
      (decodeForwardedCertificate('BAD_TEXT%%', ['URL', 'BASE64']) as { error: string }).error,
      /failed to url unescape/,
    );
    assert.match(
      (decodeForwardedCertificate('BAD_TEXT!', ['BASE64']) as { error: string }).error,
      /failed to base64 decode the client certificate/,
    );
    assert.match((decodeForwardedCertificate('AAAA', ['BASE64']) as { error: string }).error, /failed to parse/);
  });
});
