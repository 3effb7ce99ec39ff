import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { systemClock } from '@ward/base';
import Database from 'better-sqlite3';
import { request as undiciRequest } from 'undici';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

/** The root token of the loaded store (the filling server's, carried over by the forced restore). */
export const ROOT_TOKEN = 'root';

/**
 * One request to `/v1/<path>` through node:http (undici's client, reading a large body slower
 * than it arrives, re-concatenates its socket's backlog on every read: quadratic on 100 MB).
 */
function send(url: string, token: string, method: string, path: string, body?: Readable): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/${path}`, {
      method,
      headers: { 'X-Vault-Token': token, 'Content-Type': 'application/octet-stream' },
    });
    req.on('response', resolve);
    req.on('error', reject);
    if (body) pipeline(body, req).catch(reject);
    else req.end();
  });
}

/** `GET sys/storage/raft/snapshot` streamed to `file`. */
export async function saveSnapshot(url: string, token: string, file: string): Promise<void> {
  const res = await send(url, token, 'GET', 'sys/storage/raft/snapshot');
  assert.equal(res.statusCode, 200);
  await pipeline(res, createWriteStream(file));
}

/** `POST sys/storage/raft/<path>` (`snapshot` or `snapshot-force`) with `file` streamed as the body. */
export async function restoreSnapshot(url: string, token: string, path: string, file: string): Promise<void> {
  const res = await send(url, token, 'POST', `sys/storage/raft/${path}`, createReadStream(file));
  const text = (await res.toArray()).join('');
  assert.equal(res.statusCode, 204, text);
}

async function api(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await undiciRequest(`${url}/v1/${path}`, {
    method: method as 'GET',
    headers: { 'X-Vault-Token': token, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  assert.ok(res.statusCode < 300, `${method} ${path}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * A server in this process (memory storage, no fsync per write) holding `count` secrets
 * `kv1/app/<i>` of `bytes` random bytes each, written through the core directly, many in flight:
 * much faster than HTTP from another process.
 */
async function startFilledServer(count: number, bytes: number): Promise<TestServer> {
  const t = await startTestServer({ clock: systemClock });
  await api(t.url, t.rootToken, 'POST', 'sys/mounts/kv1', { type: 'kv' });
  let next = 0;
  const put = async (i: number) => {
    await t.server.core.handleRequest({
      id: `load-${i}`,
      operation: 'update',
      path: `kv1/app/${i}`,
      data: { value: randomBytes(bytes).toString('base64') },
      clientToken: t.rootToken,
      remoteAddress: '127.0.0.1',
      namespace: '',
    });
  };
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < count) await put(next++);
    }),
  );
  return t;
}

const startOn = async (args: string[], running: WardProcess[]) => {
  const ward = startWard(args);
  running.push(ward);
  const [, url = ''] = await ward.waitFor(/(?:listening: url=|export VAULT_ADDR=')(http:\/\/[^'\s]+)/, 60_000);
  return { ward, url };
};

const stop = async (ward: WardProcess) => {
  ward.child.kill('SIGTERM');
  await ward.exited;
};

export interface LoadedServer {
  url: string;
  ward: WardProcess;
  /** The SQLite database file. */
  databasePath: string;
}

/**
 * A `bin/ward` server on SQLite in `dir` holding `count` secrets in `kv1/` (root token `root`),
 * freshly restarted and unsealed, so it is idle. SQLite syncs every write, so 100k writes would take
 * many minutes: the secrets go into a server in this process on memory storage instead, whose
 * snapshot the SQLite server takes with a forced restore (batched), with that server's keyring,
 * unseal key and root token.
 * Every process started is pushed on `running` for the caller to stop.
 */
export async function startLoadedServer(
  dir: string,
  o: { count: number; bytes: number },
  running: WardProcess[],
): Promise<LoadedServer> {
  const filled = await startFilledServer(o.count, o.bytes);
  const loaded = join(dir, 'loaded.snap');
  try {
    await saveSnapshot(filled.url, filled.rootToken, loaded);
  } finally {
    await filled.stop();
  }

  const databasePath = join(dir, 'data', 'ward.db');
  const config = join(dir, 'ward.hcl');
  await writeFile(
    config,
    `storage "sqlite" {\n  path = "${databasePath}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
  );
  const first = await startOn(['server', `-config=${config}`], running);
  const init = await api(first.url, '', 'PUT', 'sys/init', { secret_shares: 1, secret_threshold: 1 });
  await api(first.url, '', 'PUT', 'sys/unseal', { key: init.keys[0] });
  await restoreSnapshot(first.url, init.root_token, 'snapshot-force', loaded);
  await stop(first.ward);
  // The restore freed the pages of the store it replaced: compact, so the file holds just the secrets.
  const db = new Database(databasePath);
  db.exec('VACUUM');
  db.close();

  const server = await startOn(['server', `-config=${config}`], running);
  await api(server.url, '', 'PUT', 'sys/unseal', { key: filled.unsealKey });
  return { url: server.url, ward: server.ward, databasePath };
}
