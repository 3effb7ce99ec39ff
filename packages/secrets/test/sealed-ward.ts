import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runWard, tempHome } from '../src/cli/testing.js';
import { request, type TestResponse } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

/**
 * Configured bin/ward servers on one SQLite file under a temp directory, restarted with other
 * `seal` stanzas: the seal tests' harness (auto-unseal, migration).
 */
export interface SealedWard {
  /** Writes config `name` (SQLite file `db`, a listener on port 0, then `seal` as given). */
  writeConfig(name: string, db: string, seal: string): Promise<void>;
  /** Starts bin/ward with config `name` and waits until it listens. */
  start(name: string): Promise<void>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
  /** The running server's output so far. */
  output(): string;
  status(): Promise<TestResponse['body']>;
  request(method: string, path: string, options?: { token?: string; body?: unknown }): Promise<TestResponse>;
  /** Runs the ward CLI against the server; a non-zero exit fails the test. Answers stdout. */
  cli(args: string[], rootToken?: string): Promise<string>;
  /** Reads each path's `v` and compares it with the map's value. */
  readsEvery(secrets: Map<string, string>, rootToken: string): Promise<void>;
  /** Stops the server and removes the directory. */
  remove(): Promise<void>;
}

export async function createSealedWard(): Promise<SealedWard> {
  const dir = await mkdtemp(join(tmpdir(), 'ward-seal-'));
  let ward: WardProcess | undefined;
  let url = '';
  const configFile = (name: string) => join(dir, `${name}.hcl`);
  const stop = async () => {
    ward?.child.kill('SIGTERM');
    await ward?.exited;
    ward = undefined;
  };
  const call = (method: string, path: string, options: { token?: string; body?: unknown } = {}) =>
    request(url, method, path, options);
  return {
    async writeConfig(name, db, seal) {
      await writeFile(
        configFile(name),
        `storage "sqlite" {\n  path = "${join(dir, db)}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n${seal}`,
      );
    },
    async start(name) {
      ward = startWard(['server', `-config=${configFile(name)}`]);
      const [, found] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
      url = found as string;
    },
    stop,
    output: () => ward?.output() ?? '',
    status: async () => (await call('GET', 'sys/seal-status')).body,
    request: call,
    async cli(args, rootToken = '') {
      const run = await runWard(args, { VAULT_ADDR: url, VAULT_TOKEN: rootToken, HOME: await tempHome() });
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}${run.stdout}`);
      return run.stdout;
    },
    async readsEvery(secrets, rootToken) {
      for (const [path, value] of secrets) {
        assert.equal((await call('GET', path, { token: rootToken })).body?.data?.v, value, path);
      }
    },
    async remove() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
