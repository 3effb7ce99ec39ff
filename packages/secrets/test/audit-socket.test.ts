import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../src/server/testing.js';

/** A TCP audit collector: keeps every line it receives; `stop` hangs up on the server. */
async function collector(port = 0) {
  const lines: string[] = [];
  const sockets = new Set<Socket>();
  let buffered = '';
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      lines.push(...parts);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('collector did not listen');
  return {
    lines,
    port: address.port,
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** Polls until `check` holds; a socket's bytes arrive a moment after the server has sent them. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await sleep(20);
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('audit socket device over HTTP', () => {
  let t: TestServer;
  let peer: Awaited<ReturnType<typeof collector>>;
  before(async () => {
    t = await startTestServer();
    peer = await collector();
  });
  after(async () => {
    await t.stop();
    await peer.stop();
  });

  it('sends one JSON line per request and per response to a TCP collector', async () => {
    const enable = await t.request('POST', 'sys/audit/sock', {
      body: { type: 'socket', options: { address: `127.0.0.1:${peer.port}`, socket_type: 'tcp', prefix: 'ward:' } },
    });
    assert.equal(enable.status, 204, JSON.stringify(enable.body));
    assert.equal((await t.request('POST', 'secret/data/s', { body: { data: { k: 'plain-value' } } })).status, 200);
    await eventually(
      () => peer.lines.some((l) => l.includes('"type":"response"') && l.includes('secret/data/s')),
      'lines',
    );
    assert.ok(
      peer.lines.every((l) => l.startsWith('ward:')),
      'each line carries the prefix',
    );
    const entries = peer.lines.map((l) => JSON.parse(l.slice('ward:'.length)));
    const ofWrite = entries.filter((e) => e.request.path === 'secret/data/s');
    assert.deepEqual(
      ofWrite.map((e) => e.type),
      ['request', 'response'],
    );
    assert.match(ofWrite[0].request.data.data.k, /^hmac-sha256:/);
    assert.equal(peer.lines.join('\n').includes('plain-value'), false);
  });

  it('fails requests with 500 while the collector is gone and it is the only device; recovers when it returns', async () => {
    const port = peer.port;
    await peer.stop();
    await eventually(async () => (await t.request('GET', 'sys/mounts')).status === 500, 'a 500');
    const failed = await t.request('GET', 'sys/mounts');
    assert.deepEqual([failed.status, failed.body], [500, { errors: ['internal error'] }]);

    peer = await collector(port);
    assert.equal((await t.request('GET', 'sys/mounts')).status, 200, 'the device connects again');
    await eventually(() => peer.lines.length >= 2, 'lines on the new connection');
  });

  it('serves requests while a second device can write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-audit-'));
    const log = join(dir, 'audit.log');
    const enable = await t.request('POST', 'sys/audit/file', { body: { type: 'file', options: { file_path: log } } });
    assert.equal(enable.status, 204);
    await peer.stop();
    for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', 'sys/mounts')).status, 200);
    assert.match(await readFile(log, 'utf8'), /"path":"sys\/mounts"/);
  });
});
