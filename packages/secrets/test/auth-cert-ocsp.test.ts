import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { OCSPRequest } from '@peculiar/asn1-ocsp';
import { AsnConvert } from '@peculiar/asn1-schema';
import { FakeClock } from '@ward/base';
import { makeTestPki, type TestPki } from '@ward/base/testing';
import { startTestServer, type TestServer, tlsRequest } from '../src/server/testing.js';

// Issue 31: the cert method checks a login certificate with OCSP (ocsp_enabled and the other
// ocsp_* settings) against a real responder: Ward's own PKI engine, served by a second server,
// whose certificates carry its OCSP URL. The login runs over real TLS with the client certificate.
// Point 4: answers are cached until their nextUpdate, and each request carries a nonce.

const NONCE_OID = '1.3.6.1.5.5.7.48.1.2';

/** A relay in front of the responder that can be down, or answer every request with the last answer it relayed. */
async function startRelay(target: () => string) {
  const relay = { mode: 'forward' as 'forward' | 'down' | 'replay', asked: 0, nonces: [] as string[] };
  let last: Buffer | undefined;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    relay.asked++;
    const ext = AsnConvert.parse(body, OCSPRequest).tbsRequest.requestExtensions?.find((e) => e.extnID === NONCE_OID);
    relay.nonces.push(ext ? Buffer.from(ext.extnValue.buffer).toString('hex') : '');
    if (relay.mode === 'down') return res.writeHead(503).end();
    if (relay.mode === 'forward') {
      const answer = await fetch(target(), {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request' },
        body,
      });
      last = Buffer.from(await answer.arrayBuffer());
    }
    res.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(last);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ocsp`;
  return Object.assign(relay, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

describe('cert auth with OCSP', () => {
  let tlsPki: TestPki;
  let ca: TestServer;
  let t: TestServer;
  let client: { certificate: string; private_key: string; serial_number: string };
  const deadServer = 'http://127.0.0.1:9/v1/pki/ocsp';

  const call = (path: string, body: unknown, o: { client?: typeof client; token?: string; method?: string } = {}) =>
    tlsRequest(t.url, o.method ?? 'POST', path, {
      ca: tlsPki.caPem,
      body,
      ...(o.token ? { token: o.token } : {}),
      ...(o.client ? { cert: o.client.certificate, key: o.client.private_key } : {}),
    });
  const admin = async (path: string, body: unknown) => {
    const res = await call(path, body, { token: t.rootToken });
    assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const onCa = async (method: string, path: string, body?: unknown) => {
    const r = await ca.request(method, path, { body });
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const login = () => call('auth/cert/login', {}, { client });
  // Every ocsp_* field each time: a trusted certificate keeps the settings a write leaves out.
  const trust = (o: Record<string, unknown>) =>
    admin('auth/cert/certs/ward', {
      certificate: rootPem,
      ocsp_fail_open: false,
      ocsp_query_all_servers: false,
      ocsp_servers_override: '',
      ...o,
    });
  let rootPem = '';
  const clock = new FakeClock(Date.now());
  let relay: Awaited<ReturnType<typeof startRelay>>;

  before(async () => {
    tlsPki = await makeTestPki();
    ca = await startTestServer();
    await onCa('POST', 'sys/mounts/pki', { type: 'pki' });
    rootPem = (await onCa('POST', 'pki/root/generate/internal', { common_name: 'Ward CA', key_type: 'ec', ttl: '24h' }))
      .data.certificate;
    await onCa('POST', 'pki/config/urls', { ocsp_servers: `${ca.url}/v1/pki/ocsp` });
    await onCa('POST', 'pki/roles/client', { allow_any_name: true, client_flag: true, key_type: 'ec', ttl: '1h' });
    client = (await onCa('POST', 'pki/issue/client', { common_name: 'dave' })).data;
    relay = await startRelay(() => `${ca.url}/v1/pki/ocsp`);
    t = await startTestServer({
      clock,
      listener: { tlsDisable: false, tlsCertFile: tlsPki.server.certFile, tlsKeyFile: tlsPki.server.keyFile },
    });
    await admin('sys/auth/cert', { type: 'cert' });
  });
  after(async () => {
    await t?.stop();
    await ca?.stop();
    await relay?.close();
    await tlsPki?.remove();
  });

  it('logs in while the responder says good, refuses once the certificate is revoked', async () => {
    await trust({ ocsp_enabled: true, token_policies: 'ocsp' });
    const stored = await call('auth/cert/certs/ward', undefined, { token: t.rootToken, method: 'GET' });
    assert.equal(stored.body.data.ocsp_enabled, true);
    const good = await login();
    assert.equal(good.status, 200, JSON.stringify(good.body));
    assert.deepEqual(good.body.auth.token_policies, ['default', 'ocsp']);
    await onCa('POST', 'pki/revoke', { serial_number: client.serial_number });
    assert.equal((await login()).status, 200, 'the good answer is cached until its nextUpdate');
    // A config write starts the cache afresh, as established.
    await admin('auth/cert/config', { ocsp_cache_size: 100 });
    const revoked = await login();
    assert.equal(revoked.status, 400, JSON.stringify(revoked.body));
    // Revoked is never failed open.
    await trust({ ocsp_enabled: true, ocsp_fail_open: true });
    assert.equal((await login()).status, 400);
  });

  it('fails closed when no server answers, open with ocsp_fail_open, and asks every server with ocsp_query_all_servers', async () => {
    client = (await onCa('POST', 'pki/issue/client', { common_name: 'erin' })).data;
    await trust({ ocsp_enabled: true, ocsp_servers_override: deadServer });
    assert.equal((await login()).status, 400, 'the only server is down: closed');
    await trust({ ocsp_enabled: true, ocsp_servers_override: deadServer, ocsp_fail_open: true });
    assert.equal((await login()).status, 200, 'fail open');
    const both = `${deadServer},${ca.url}/v1/pki/ocsp`;
    await trust({ ocsp_enabled: true, ocsp_servers_override: both });
    assert.equal((await login()).status, 200, 'one good answer is enough by default');
    await trust({ ocsp_enabled: true, ocsp_servers_override: both, ocsp_query_all_servers: true });
    assert.equal((await login()).status, 400, 'with query_all every server must answer good');
    await trust({ ocsp_enabled: false, ocsp_servers_override: deadServer });
    assert.equal((await login()).status, 200, 'OCSP off: not asked');
  });

  it('puts the login metadata on the entity alias with enable_identity_alias_metadata', async () => {
    await trust({ ocsp_enabled: false });
    const aliasMetadata = async (entityId: string) => {
      const entity = await call(`identity/entity/id/${entityId}`, undefined, { token: t.rootToken, method: 'GET' });
      return entity.body.data.aliases[0].metadata;
    };
    const first = await login();
    assert.equal(first.status, 200);
    const entityId = first.body.auth.entity_id;
    assert.equal(await aliasMetadata(entityId), null, 'off by default');
    await admin('auth/cert/config', { enable_identity_alias_metadata: true });
    const second = await login();
    assert.equal(second.body.auth.entity_id, entityId, 'the same alias and entity');
    const metadata = await aliasMetadata(entityId);
    assert.equal(metadata.common_name, 'erin');
    assert.equal(metadata.cert_name, 'ward');
    assert.match(metadata.serial_number, /^\d+$/);
  });
  it('answers from the cache while the responder is down, until the answer’s nextUpdate', async () => {
    await onCa('POST', 'pki/config/crl', { ocsp_expiry: '30m' });
    client = (await onCa('POST', 'pki/issue/client', { common_name: 'frank' })).data;
    await trust({ ocsp_enabled: true, ocsp_servers_override: relay.url });
    relay.mode = 'forward';
    const before = relay.asked;
    assert.equal((await login()).status, 200);
    assert.equal(relay.asked, before + 1);
    assert.match(relay.nonces.at(-1) ?? '', /^0410[0-9a-f]{32}$/, 'a 16-byte nonce in an OCTET STRING');
    relay.mode = 'down';
    assert.equal((await login()).status, 200, 'answered from the cache');
    assert.equal(relay.asked, before + 1, 'the responder was not asked again');
    clock.advance(29 * 60_000);
    assert.equal((await login()).status, 200, 'still before nextUpdate');
    clock.advance(2 * 60_000);
    assert.equal((await login()).status, 400, 'past nextUpdate the down responder is asked: closed');
    assert.equal(relay.asked, before + 2);
    relay.mode = 'forward';
    assert.equal((await login()).status, 200);
    assert.notEqual(relay.nonces.at(-1), relay.nonces.at(-3), 'a fresh nonce each request');
  });

  it('refuses a recorded answer replayed for a later request (its nonce is another’s)', async () => {
    await admin('auth/cert/config', { ocsp_cache_size: 2 });
    relay.mode = 'forward';
    assert.equal((await login()).status, 200);
    await admin('auth/cert/config', { ocsp_cache_size: 2 });
    relay.mode = 'replay';
    const replayed = await login();
    assert.equal(replayed.status, 400, 'the replayed answer echoes the first request’s nonce');
    relay.mode = 'forward';
    assert.equal((await login()).status, 200);
    const bad = await call('auth/cert/config', { ocsp_cache_size: 1 }, { token: t.rootToken });
    assert.equal(bad.status, 400);
  });
});
