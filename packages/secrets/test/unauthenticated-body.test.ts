import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 12 point 4: a body is read and parsed only for a request the token (and the ACL, as far
// as it can judge without the body) accepts.
const BODY_BYTES = 31 * 1024 * 1024;
const MiB = Buffer.alloc(1024 * 1024, ' ');

/**
 * Announces a `BODY_BYTES` JSON body, sends its first MiB and waits for the answer without sending
 * the rest: only a server that answers before reading the body answers at all.
 */
function answerBeforeBody(t: TestServer, path: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${t.url}/v1/${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(BODY_BYTES),
        ...(token ? { 'X-Vault-Token': token } : {}),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer before the body was sent: the server waited for the body'));
    }, 10_000);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      req.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => undefined);
    req.write('{"data":{"a":"');
    req.write(MiB);
  });
}

/** A 31 MiB KV write within the JSON limits: 31 strings of a million spaces. */
function bigWrite(): Buffer {
  const value = ' '.repeat(1_000_000);
  const entries = Array.from({ length: 31 }, (_, i) => `"k${i}":"${value}"`);
  return Buffer.from(`{"data":{${entries.join(',')}}}`);
}

/** Sends `body` whole and resolves with the status (0 when the server closed the connection first). */
function sendWhole(t: TestServer, path: string, body: Buffer, token?: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${t.url}/v1/${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(body.length),
        ...(token ? { 'X-Vault-Token': token } : {}),
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  }).catch(() => 0);
}

/** The slowest `sys/health` answer while `work` runs. */
async function healthLatencyDuring(t: TestServer, work: Promise<unknown>): Promise<number> {
  let worst = 0;
  let isDone = false;
  void work.finally(() => {
    isDone = true;
  });
  while (!isDone) {
    const started = performance.now();
    await t.request('GET', 'sys/health', { token: null });
    worst = Math.max(worst, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Math.round(worst);
}

describe('bodies of refused requests are never read (issue 12)', () => {
  let t: TestServer;
  let readOnly: string;
  before(async () => {
    t = await startTestServer();
    await t.request('PUT', 'sys/policies/acl/reader', {
      body: { policy: 'path "secret/*" { capabilities = ["read"] }' },
    });
    readOnly = (await t.request('POST', 'auth/token/create', { body: { policies: ['reader'] } })).body.auth
      .client_token;
  });
  after(() => t.stop());

  it('answers a tokenless 31 MiB body with 403 before the body is sent', async () => {
    assert.equal(await answerBeforeBody(t, 'secret/data/big'), 403);
    assert.equal(await answerBeforeBody(t, 'secret/data/big', 'hvs.unknown'), 403);
  });

  it('answers 403 before the body when the ACL refuses the write whatever the body holds', async () => {
    assert.equal(await answerBeforeBody(t, 'secret/data/big', readOnly), 403);
    assert.equal((await t.request('GET', 'sys/health', { token: null })).status, 200);
  });

  it('reports sys/health latency during four tokenless 31 MiB bodies and one accepted one', async () => {
    const body = bigWrite();
    const refused = Promise.all([1, 2, 3, 4].map(() => sendWhole(t, 'secret/data/big', body)));
    const worstRefused = await healthLatencyDuring(t, refused);
    for (const status of await refused) assert.ok(status === 403 || status === 0, `status ${status}`);
    const accepted = sendWhole(t, 'secret/data/big', body, t.rootToken);
    const worstAccepted = await healthLatencyDuring(t, accepted);
    assert.equal(await accepted, 200);
    // Reported, not asserted: latency depends on the machine and its load.
    console.log(
      `# sys/health worst latency: ${worstRefused} ms during 4 tokenless 31 MiB bodies, ` +
        `${worstAccepted} ms during one accepted 31 MiB write`,
    );
  });
});
