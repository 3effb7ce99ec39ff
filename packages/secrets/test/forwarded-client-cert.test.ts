import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Issued, makeTestPki, type TestPki } from '@ward/base/testing';
import { request } from '../src/server/testing.js';
import { type SqliteWard, startSqliteWard } from './ward-process.js';

// Issue 29 point 1: `x_forwarded_for_client_cert_header` (and its decoders): a proxy in
// `x_forwarded_for_authorized_addrs` passes the client's certificate in a header, and the `cert`
// method logs in with it; from any other address the header is not believed.

const HEADER = 'X-Forwarded-Tls-Client-Cert';
const certLines = (authorized: string) =>
  [
    `x_forwarded_for_authorized_addrs = "${authorized}"`,
    'x_forwarded_for_reject_not_authorized = false',
    'x_forwarded_for_reject_not_present = false',
    `x_forwarded_for_client_cert_header = "${HEADER}"`,
    'x_forwarded_for_client_cert_header_decoders = "URL,DER"',
  ].join('\n');

let dir: string;
let pki: TestPki;
let alice: Issued;
let bob: Issued;
let trusting: SqliteWard;
let distrusting: SqliteWard;

async function setUpCertAuth(w: SqliteWard): Promise<void> {
  const token = w.rootToken;
  const enable = await request(w.url, 'POST', 'sys/auth/cert', { token, body: { type: 'cert' } });
  assert.equal(enable.status, 204, JSON.stringify(enable.body));
  const trust = await request(w.url, 'POST', 'auth/cert/certs/eng', {
    token,
    body: { certificate: pki.caPem, allowed_organizational_units: 'engineering', token_policies: 'eng' },
  });
  assert.equal(trust.status, 204, JSON.stringify(trust.body));
}

const login = (w: SqliteWard, headerValue?: string) =>
  request(w.url, 'POST', 'auth/cert/login', {
    body: {},
    headers: {
      'x-forwarded-for': '203.0.113.9',
      ...(headerValue === undefined ? {} : { [HEADER]: headerValue }),
    },
  });

describe('cert login with the certificate a trusted proxy forwards, through bin/ward', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-xfcc-'));
    pki = await makeTestPki();
    alice = await pki.client('alice', { subject: '/CN=alice/OU=engineering' });
    bob = await pki.client('bob', { subject: '/CN=bob/OU=sales' });
    [trusting, distrusting] = await Promise.all([
      startSqliteWard(join(dir, 'trusting'), { listener: certLines('127.0.0.1/32') }),
      startSqliteWard(join(dir, 'distrusting'), { listener: certLines('10.0.0.0/8') }),
    ]);
    await Promise.all([setUpCertAuth(trusting), setUpCertAuth(distrusting)]);
  });
  after(async () => {
    for (const w of [trusting, distrusting]) w?.ward.child.kill('SIGKILL');
    await pki?.remove();
    await rm(dir, { recursive: true, force: true });
  });

  it('names neither key as having no effect at startup', () => {
    assert.doesNotMatch(trusting.ward.output(), /client_cert_header.*no effect/);
  });

  it('logs in with the forwarded certificate from an authorized address (URL, then DER decoding)', async () => {
    const res = await login(trusting, encodeURIComponent(alice.pem));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.metadata.common_name, 'alice');
    assert.equal(res.body.auth.metadata.cert_name, 'eng');
    assert.ok(res.body.auth.policies.includes('eng'));
    assert.equal(
      res.body.auth.metadata.serial_number,
      BigInt(`0x${new X509Certificate(alice.pem).serialNumber}`).toString(),
    );
  });

  it('still judges the forwarded certificate: one outside the constraints is refused', async () => {
    const res = await login(trusting, encodeURIComponent(bob.pem));
    assert.equal(res.status, 400, JSON.stringify(res.body));
  });

  it('refuses a header that does not decode to a certificate (400, before any login)', async () => {
    const res = await login(
      trusting,
      encodeURIComponent('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'),
    );
    assert.equal(res.status, 400);
    assert.match(res.body.errors.join(' '), /failed to parse the client certificate/);
    const noPem = await login(trusting, 'not-a-certificate');
    assert.equal(noPem.status, 400);
    assert.match(noPem.body.errors.join(' '), /failed to decode the client certificate/);
  });

  it('without the header, a plain-HTTP login has no certificate', async () => {
    const res = await login(trusting);
    assert.equal(res.status, 400);
    assert.match(res.body.errors.join(' '), /tls connection required/);
  });

  it('does not believe the header from an address outside x_forwarded_for_authorized_addrs', async () => {
    const res = await login(distrusting, encodeURIComponent(alice.pem));
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.match(res.body.errors.join(' '), /tls connection required/);
    assert.equal(res.body.auth, undefined);
  });
});
