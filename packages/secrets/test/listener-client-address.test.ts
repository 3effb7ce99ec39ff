import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { createDevTls, type DevTlsFiles } from '../src/server/dev-tls.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 29: x_forwarded_for_* and proxy_protocol_* decide the client address a request is judged by,
// seen here through a token bound to 10.9.8.7 (bound_cidrs), which only that client may use.
const CLIENT = '10.9.8.7';

/** A token of a role bound to CLIENT, created over plain HTTP or, given `tls`, HTTPS. */
async function boundToken(t: TestServer, tls?: DevTlsFiles): Promise<string> {
  const send = (method: string, path: string, body: unknown) =>
    tls ? httpsJson(t, tls, method, path, body) : t.request(method, path, { body });
  const role = await send('POST', 'auth/token/roles/bound', {
    allowed_policies: ['default'],
    token_bound_cidrs: [CLIENT],
    token_ttl: '1h',
  });
  assert.equal(role.status, 204, JSON.stringify(role.body));
  // Not a root token: those are usable from anywhere (they never expire).
  const res = await send('POST', 'auth/token/create/bound', { policies: ['default'] });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return (res.body as { auth: { client_token: string } }).auth.client_token;
}

function httpsJson(t: TestServer, tls: DevTlsFiles, method: string, path: string, body: unknown) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const req = httpsRequest(
      `${t.url}/v1/${path}`,
      { method, ca: readFileSync(tls.caFile), headers: { 'X-Vault-Token': t.rootToken } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.once('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** Sends `head` (a PROXY header, or nothing) and a lookup-self in one write; resolves with the status line's code. */
function rawLookup(port: number, token: string, head: Buffer, tls?: DevTlsFiles): Promise<number> {
  const request = Buffer.from(
    `GET /v1/auth/token/lookup-self HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${token}\r\nConnection: close\r\n\r\n`,
  );
  return new Promise((resolve, reject) => {
    const raw = netConnect(port, '127.0.0.1');
    raw.once('error', reject);
    raw.once('connect', () => {
      let text = '';
      const read = (s: NodeJS.ReadableStream) => {
        s.on('data', (d: Buffer) => {
          text += d.toString();
        });
        s.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
        s.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
      };
      if (!tls) {
        read(raw);
        raw.write(Buffer.concat([head, request]));
        return;
      }
      raw.write(head);
      const secure = tlsConnect({ socket: raw, ca: readFileSync(tls.caFile), servername: 'localhost' }, () =>
        secure.write(request),
      );
      secure.once('error', reject);
      read(secure);
    });
  });
}

function proxyV2(source: string): Buffer {
  const sig = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
  const body = Buffer.alloc(12);
  body.set(source.split('.').map(Number), 0);
  body.set([127, 0, 0, 1], 4);
  body.writeUInt16BE(5555, 8);
  body.writeUInt16BE(8200, 10);
  return Buffer.concat([sig, Buffer.from([0x21, 0x11, 0x00, 12]), body]);
}

describe('listener x_forwarded_for_*', () => {
  let t: TestServer;
  let token: string;
  before(async () => {
    t = await startTestServer({
      listener: {
        forwardedFor: {
          authorizedCidrs: ['127.0.0.1/32'],
          hopSkips: 1,
          rejectNotAuthorized: true,
          rejectNotPresent: false,
        },
      },
    });
    token = await boundToken(t);
  });
  after(() => t.stop());

  it('takes the client from an authorized peer’s header, hop_skips links from the end', async () => {
    const lookup = (xff?: string) =>
      t.request('GET', 'auth/token/lookup-self', { token, headers: xff ? { 'X-Forwarded-For': xff } : {} });
    assert.equal((await lookup(`${CLIENT}, 10.0.0.1`)).status, 200);
    assert.equal((await lookup(`10.0.0.1, ${CLIENT}`)).status, 403);
    // Not present and not rejected: the peer (127.0.0.1) is the client, whom the token does not allow.
    assert.equal((await lookup()).status, 403);
    const short = await lookup(CLIENT);
    assert.equal(short.status, 400);
    assert.match(JSON.stringify(short.body), /hops to skip \(1\) would skip before earliest chain link/);
  });
});

describe('listener x_forwarded_for_* from an unauthorized peer', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({
      listener: {
        forwardedFor: {
          authorizedCidrs: ['10.0.0.0/8'],
          hopSkips: 0,
          rejectNotAuthorized: true,
          rejectNotPresent: true,
        },
      },
    });
  });
  after(() => t.stop());

  it('refuses the header of a peer outside the authorized addresses, and a missing header', async () => {
    const res = await t.request('GET', 'sys/health', { headers: { 'X-Forwarded-For': CLIENT } });
    assert.equal(res.status, 400);
    assert.match(JSON.stringify(res.body), /client address not authorized for x-forwarded-for/);
    assert.equal((await t.request('GET', 'sys/health')).status, 400);
  });
});

describe('listener proxy_protocol_behavior', () => {
  let plain: TestServer;
  let secure: TestServer;
  let denying: TestServer;
  let tls: DevTlsFiles;
  const port = (t: TestServer) => Number(new URL(t.url).port);
  before(async () => {
    tls = await createDevTls(Date.now());
    plain = await startTestServer({ listener: { proxyProtocol: { behavior: 'use_always', authorizedCidrs: [] } } });
    secure = await startTestServer({
      listener: {
        tlsDisable: false,
        tlsCertFile: tls.certFile,
        tlsKeyFile: tls.keyFile,
        proxyProtocol: { behavior: 'allow_authorized', authorizedCidrs: ['127.0.0.1/32'] },
      },
    });
    denying = await startTestServer({
      listener: { proxyProtocol: { behavior: 'deny_unauthorized', authorizedCidrs: ['10.0.0.0/8'] } },
    });
  });
  after(async () => {
    await Promise.all([plain.stop(), secure.stop(), denying.stop()]);
    await tls.remove();
  });

  it('takes the client from a v1 or v2 header, and serves connections without one as before', async () => {
    const token = await boundToken(plain);
    const v1 = Buffer.from(`PROXY TCP4 ${CLIENT} 127.0.0.1 5555 8200\r\n`);
    assert.equal(await rawLookup(port(plain), token, v1), 200);
    assert.equal(await rawLookup(port(plain), token, proxyV2(CLIENT)), 200);
    assert.equal(await rawLookup(port(plain), token, Buffer.from('PROXY TCP4 10.0.0.1 127.0.0.1 1 2\r\n')), 403);
    assert.equal(await rawLookup(port(plain), token, Buffer.alloc(0)), 403);
  });

  it('reads the header before the TLS handshake', async () => {
    const token = await boundToken(secure, tls);
    const v1 = Buffer.from(`PROXY TCP4 ${CLIENT} 127.0.0.1 5555 8200\r\n`);
    assert.equal(await rawLookup(port(secure), token, v1, tls), 200);
  });

  it('deny_unauthorized drops connections from peers outside the authorized addresses', async () => {
    const v1 = Buffer.from(`PROXY TCP4 ${CLIENT} 127.0.0.1 5555 8200\r\n`);
    assert.equal(await rawLookup(port(denying), 'x', v1), 0);
  });
});
