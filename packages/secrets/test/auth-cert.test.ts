import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { type Issued, makeTestPki, type TestPki } from '@ward/base/testing';
import { startTestServer, type TestServer, tlsRequest } from '../src/server/testing.js';

// Issue 31: the cert auth method over real TLS: the listener asks for a client certificate, and
// the login checks it against trusted CAs (and a pinned certificate), constraints and CRLs.

describe('cert auth method over TLS', () => {
  let pki: TestPki;
  let t: TestServer;
  let clock: FakeClock;
  let alice: Issued;
  let bob: Issued;
  let viaIntermediate: Issued;
  let pinned: Issued;

  /** A request over TLS, with a client certificate (and extra chain certificates) or none. */
  const call = (
    method: string,
    path: string,
    body?: unknown,
    o: { client?: Issued; extraCa?: string; token?: string } = {},
  ) =>
    tlsRequest(t.url, method === 'LIST' ? 'GET' : method, path, {
      ca: pki.caPem,
      body,
      ...(o.token ? { token: o.token } : {}),
      ...(o.client ? { cert: o.client.pem + (o.extraCa ?? ''), key: readFileSync(o.client.keyFile, 'utf8') } : {}),
    });
  const admin = (method: string, path: string, body?: unknown) =>
    call(method, method === 'LIST' ? `${path}?list=true` : path, body, { token: t.rootToken });
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await admin(method, path, body);
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const login = (client?: Issued, name?: string, extraCa = '') =>
    call('POST', 'auth/cert/login', name ? { name } : {}, { ...(client ? { client } : {}), extraCa });

  before(async () => {
    pki = await makeTestPki();
    alice = await pki.client('alice', {
      subject: '/CN=alice/OU=engineering',
      extensions: [
        'subjectAltName=DNS:alice.example.test,email:alice@example.test',
        '1.2.3.4.5=ASN1:UTF8String:team-a',
      ],
    });
    bob = await pki.client('bob', { subject: '/CN=bob/OU=sales' });
    viaIntermediate = await pki.client('carol', { subject: '/CN=carol/OU=engineering', byIntermediate: true });
    pinned = await pki.client('pinned', { subject: '/CN=pinned-service' });
    clock = new FakeClock(new Date().toISOString());
    t = await startTestServer({
      clock,
      listener: { tlsDisable: false, tlsCertFile: pki.server.certFile, tlsKeyFile: pki.server.keyFile },
    });
    await ok('POST', 'sys/auth/cert', { type: 'cert' });
    await ok('POST', 'auth/cert/certs/eng', {
      certificate: pki.caPem,
      allowed_organizational_units: 'engineering',
      token_policies: 'eng',
    });
    await ok('POST', 'auth/cert/certs/pinned', { certificate: pinned.pem, display_name: 'svc', token_policies: 'svc' });
  });
  after(async () => {
    await t?.stop();
    await pki?.remove();
  });

  it('keeps trusted certificates and the config, and refuses what is not a certificate', async () => {
    const eng = (await ok('GET', 'auth/cert/certs/ENG')).data;
    assert.equal(eng.display_name, 'eng');
    assert.deepEqual(eng.allowed_organizational_units, ['engineering']);
    assert.deepEqual((await ok('LIST', 'auth/cert/certs')).data.keys, ['eng', 'pinned']);
    assert.equal((await admin('POST', 'auth/cert/certs/bad', { certificate: 'nope' })).status, 400);
    assert.equal((await admin('POST', 'auth/cert/certs/bad', {})).status, 400);
    assert.equal((await admin('POST', 'auth/cert/config', { disable_binding: true })).status, 204);
    assert.equal((await ok('GET', 'auth/cert/config')).data.disable_binding, true);
  });

  it('logs a client in with a certificate its trusted CA signed, meeting the constraints', async () => {
    const res = await login(alice);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.token_policies, ['default', 'eng']);
    const meta = res.body.auth.metadata;
    assert.equal(meta.cert_name, 'eng');
    assert.equal(meta.common_name, 'alice');
    assert.match(meta.serial_number, /^\d+$/);
    assert.match(meta.subject_key_id, /^([0-9a-f]{2}:)+[0-9a-f]{2}$/);
    assert.match(meta.authority_key_id, /^([0-9a-f]{2}:)+[0-9a-f]{2}$/);
    const entity = (await ok('GET', `identity/entity/id/${res.body.auth.entity_id}`)).data;
    assert.equal(entity.aliases[0].name, 'alice');
    const pinnedLogin = await login(pinned);
    assert.equal(pinnedLogin.status, 200, JSON.stringify(pinnedLogin.body));
    assert.deepEqual(pinnedLogin.body.auth.token_policies, ['default', 'svc']);
  });

  it('follows the intermediate the client sends, and needs it', async () => {
    assert.equal((await login(viaIntermediate)).status, 400, 'without the intermediate there is no chain');
    const res = await login(viaIntermediate, undefined, pki.intermediatePem);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.auth.metadata.common_name, 'carol');
  });

  it('refuses no certificate, constraints not met, the wrong name, and an untrusted certificate with 400', async () => {
    assert.equal((await login()).status, 400);
    assert.equal((await login(bob)).status, 400, 'OU sales is not allowed');
    assert.equal((await login(alice, 'pinned')).status, 400, 'only the named entry is tried');
    assert.equal((await login(alice, 'nope')).status, 400);
    await ok('POST', 'auth/cert/certs/strict', {
      certificate: pki.caPem,
      allowed_dns_sans: '*.example.test',
      required_extensions: '1.2.3.4.5:team-*',
    });
    assert.equal((await login(alice, 'strict')).status, 200);
    await ok('POST', 'auth/cert/certs/strict', { required_extensions: '1.2.3.4.5:team-b' });
    assert.equal((await login(alice, 'strict')).status, 400);
    await ok('POST', 'auth/cert/certs/strict', { required_extensions: '', allowed_email_sans: 'bob@*' });
    assert.equal((await login(alice, 'strict')).status, 400);
  });

  it('refuses a revoked certificate once its CRL is loaded', async () => {
    const crl = await pki.revoke(alice);
    await ok('POST', 'auth/cert/crls/root', { crl });
    const serials = Object.keys((await ok('GET', 'auth/cert/crls/root')).data.serials);
    assert.equal(serials.length, 1);
    const res = await login(alice);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    await ok('DELETE', 'auth/cert/crls/root');
    assert.equal((await login(alice)).status, 200);
  });

  it('refuses an expired certificate under a CA; a pinned one is trusted as is (as established)', async () => {
    clock.advance(3 * 86_400_000);
    assert.equal((await login(viaIntermediate, undefined, pki.intermediatePem)).status, 400);
    assert.equal((await login(pinned)).status, 200);
  });
});
