import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import { RawClient } from '../src/http/raw-http.testing.js';
import { startWard, type WardProcess } from './ward-process.js';

// Issue 13, point 1: no request may see a half-built core. Scripts poll sys/health and use the
// token at once, so the first 200 from health must mean the root token and the mounts are there.

/** A port free right now (the dev server must be told one before it prints where it listens). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** One request on a fresh raw connection, or undefined while nothing accepts connections on `port`. */
async function tryRequest(port: number, head: string): Promise<{ status: number; body: string } | undefined> {
  const client = await RawClient.connect(port).catch(() => undefined);
  if (!client) return undefined;
  try {
    await client.write(`${head}Host: ward\r\nConnection: close\r\n\r\n`);
    const response = await client.readResponse();
    return { status: response.status, body: response.body.toString() };
  } catch {
    return undefined; // closed before answering: still starting
  } finally {
    client.close();
  }
}

describe('startup: listeners open only once the core is ready', () => {
  const running: WardProcess[] = [];
  after(() => {
    for (const w of running) w.child.kill('SIGKILL');
  });

  it('dev mode: once sys/health first answers 200, the root token reads sys/mounts (3 fresh starts)', async () => {
    for (let run = 0; run < 3; run++) {
      const port = await freePort();
      const ward = startWard(['server', '-dev', '-dev-root-token-id=root', `-dev-listen-address=127.0.0.1:${port}`]);
      running.push(ward);
      let health: { status: number } | undefined;
      while (health?.status !== 200) {
        assert.equal(ward.child.exitCode, null, ward.output());
        health = await tryRequest(port, 'GET /v1/sys/health HTTP/1.1\r\n');
      }
      const mounts = await tryRequest(port, 'GET /v1/sys/mounts HTTP/1.1\r\nX-Vault-Token: root\r\n');
      assert.equal(mounts?.status, 200, `run ${run}: ${mounts?.body}`);
      assert.ok(JSON.parse(mounts.body).data['secret/'], 'the default KV mount is there');
      ward.child.kill('SIGKILL');
      await ward.exited;
    }
  });
});
