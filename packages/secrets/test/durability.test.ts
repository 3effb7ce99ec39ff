import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PostgresServer } from '@ward/base/testing';
import pg from 'pg';
import { initShamirAndUnseal, mountKvV2AtSecret, request } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

const SECRET_MARKER = 'plaintext-marker-7f3a9c';

/** A storage under test: its block, and every byte it holds (to look for plaintext in). */
interface DurableStorage {
  block: string;
  storedBytes(): Promise<Buffer>;
  stop(): Promise<void>;
}

/** Every file under `dir`, concatenated. */
async function filesUnder(dir: string): Promise<Buffer> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Buffer.concat(await Promise.all(files.map((f) => readFile(f))));
}

/** The storages under test, each given the directory its data goes in. */
const STORAGES: ReadonlyArray<{ name: string; start(data: string): Promise<DurableStorage> }> = [
  {
    name: 'SQLite',
    start: async (data) => ({
      block: `storage "sqlite" {\n  path = "${join(data, 'ward.db')}"\n}\n`,
      storedBytes: () => filesUnder(data),
      stop: async () => {},
    }),
  },
  // Issue 29: the established single-server backend, one file per key.
  {
    name: 'file',
    start: async (data) => ({
      block: `storage "file" {\n  path = "${data}"\n}\n`,
      storedBytes: () => filesUnder(data),
      stop: async () => {},
    }),
  },
  // Issue 29: a write is acknowledged only once PostgreSQL committed it.
  {
    name: 'PostgreSQL',
    async start() {
      const server = await PostgresServer.start();
      const url = await server.createDatabase();
      return {
        block: `storage "postgresql" {\n  connection_url = "${url}"\n}\n`,
        async storedBytes() {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            const { rows } = await client.query<{ key: string; value: Buffer }>(
              'SELECT path || key AS key, value FROM vault_kv_store',
            );
            return Buffer.concat(rows.flatMap((r) => [Buffer.from(r.key), r.value]));
          } finally {
            await client.end();
          }
        },
        stop: () => server.stop(),
      };
    },
  },
];

/**
 * Each storage keeps every acknowledged write through a SIGKILL of the server (with more writes
 * in flight at the moment of the kill), and nothing secret reaches its files unencrypted.
 */
for (const storage of STORAGES)
  describe(`${storage.name} storage through a crash`, () => {
    let dir: string;
    let config: string;
    let ward: WardProcess | undefined;
    let stored: DurableStorage;

    const start = async () => {
      ward = startWard(['server', `-config=${config}`]);
      const [, url] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
      return url as string;
    };

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ward-durability-'));
      config = join(dir, 'ward.hcl');
      stored = await storage.start(join(dir, 'data'));
      await writeFile(
        config,
        `${stored.block}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
      );
    });
    after(async () => {
      ward?.child.kill('SIGKILL');
      await ward?.exited;
      await stored?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    let keys: string[] = [];
    let rootToken = '';
    const written = new Map<string, string>();

    it('acknowledges writes, is killed with SIGKILL, and reads every write back after unsealing with 3 of 5 keys', async () => {
      let url = await start();
      ({ keys, rootToken } = await initShamirAndUnseal(url));
      // A configured server's secret/ is KV version 1; this test is about version 2 there.
      await mountKvV2AtSecret(url, rootToken);

      // Concurrent writes, each acknowledged before the kill.
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const value = `${SECRET_MARKER}-${i}`;
          const res = await request(url, 'POST', `secret/data/app/${i}`, {
            token: rootToken,
            body: { data: { value } },
          });
          assert.equal(res.status, 200);
          written.set(`app/${i}`, value);
        }),
      );
      const mount = await request(url, 'POST', 'sys/mounts/kv1', { token: rootToken, body: { type: 'kv' } });
      assert.equal(mount.status, 204);
      await request(url, 'POST', 'kv1/plain', { token: rootToken, body: { password: `${SECRET_MARKER}-v1` } });

      // Writes in flight when the process dies must leave the store readable (old or new, never torn).
      const inFlight = Array.from({ length: 20 }, (_, i) =>
        request(url, 'POST', `secret/data/flight/${i}`, { token: rootToken, body: { data: { value: 'x' } } }).catch(
          () => undefined,
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
      ward?.child.kill('SIGKILL');
      assert.equal(await ward?.exited, 'SIGKILL');
      await Promise.all(inFlight);

      url = await start();
      assert.equal((await request(url, 'GET', 'sys/seal-status')).body.sealed, true);
      for (const key of [keys[4], keys[1], keys[3]]) await request(url, 'PUT', 'sys/unseal', { body: { key } });
      assert.equal((await request(url, 'GET', 'sys/seal-status')).body.sealed, false);
      for (const [path, value] of written) {
        const res = await request(url, 'GET', `secret/data/${path}`, { token: rootToken });
        assert.equal(res.status, 200, path);
        assert.equal(res.body.data.data.value, value);
      }
      const v1 = await request(url, 'GET', 'kv1/plain', { token: rootToken });
      assert.equal(v1.body.data.password, `${SECRET_MARKER}-v1`);
    });

    it('leaves no plaintext secret, token or key in what the storage holds', async () => {
      ward?.child.kill('SIGTERM');
      assert.equal(await ward?.exited, 0);
      const bytes = await stored.storedBytes();
      assert.ok(bytes.length > 0);
      const haystack = bytes.toString('latin1');
      assert.ok(!haystack.includes(SECRET_MARKER), 'secret values are encrypted');
      assert.ok(!haystack.includes(rootToken), 'the root token is not stored');
      for (const key of keys) {
        assert.ok(!haystack.includes(key) && !bytes.includes(Buffer.from(key, 'hex')), 'no unseal key share is stored');
      }
    });
  });
