import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard, tempHome } from '../src/cli/testing.js';
import { startDevWard, startWard, type WardProcess } from './ward-process.js';

// Which engine `secret/` is on a new server: KV version 1 on a configured server (spec 000: every
// install has `kv` at `secret/`; the established configured server mounts none, and its clients
// expect version 1 where one exists), KV version 2 in dev mode as established, version 1 with the
// hidden `-dev-kv-v1`. All through the real binary.

interface Running {
  ward: WardProcess;
  env: Record<string, string>;
}

const running: WardProcess[] = [];
after(() => {
  for (const w of running) w.child.kill('SIGKILL');
});

async function startDev(flags: string[]): Promise<Running> {
  const { ward, env } = await startDevWard('root', flags);
  running.push(ward);
  return { ward, env };
}

/** `ward server -config` with in-memory storage, initialised with `ward operator init` (5 shares, threshold 3). */
async function startConfigured(dir: string): Promise<Running> {
  const config = join(dir, 'ward.hcl');
  await writeFile(config, 'storage "inmem" {}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n');
  const ward = startWard(['server', `-config=${config}`]);
  running.push(ward);
  const [, addr] = await ward.waitFor(/Listener 1: tcp \(addr: "([^"]+)"/);
  const env: Record<string, string> = { VAULT_ADDR: `http://${addr}`, HOME: await tempHome() };
  const init = await runWard(['operator', 'init', '-key-shares=5', '-key-threshold=3', '-format=json'], env);
  assert.equal(init.code, 0, init.stderr);
  const { keys_base64: keys, root_token: rootToken } = JSON.parse(init.stdout);
  for (const key of keys.slice(0, 3)) assert.equal((await runWard(['operator', 'unseal', key], env)).code, 0);
  return { ward, env: { ...env, VAULT_TOKEN: rootToken } };
}

async function secretMount(env: Record<string, string>) {
  const run = await runWard(['secrets', 'list', '-format=json'], env);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout)['secret/'];
}

describe('secret/ on a new server', () => {
  let dir: string;
  let configured: Running;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-default-mounts-'));
    configured = await startConfigured(dir);
  });
  after(async () => {
    configured?.ward.child.kill('SIGTERM');
    await configured?.ward.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('a configured server lists secret/ as kv version 1 (no version option)', async () => {
    const mount = await secretMount(configured.env);
    assert.equal(mount.type, 'kv');
    assert.equal(mount.description, 'key/value secret storage');
    assert.equal(mount.options, null, 'no version option: version 1');
  });

  it('a configured server writes, reads, lists and deletes version-1 paths at secret/', async () => {
    const { env } = configured;
    const put = await runWard(['write', 'secret/app/db', 'password=s3cret', 'user=app'], env);
    assert.equal(put.code, 0, put.stderr);
    const read = await runWard(['read', '-format=json', 'secret/app/db'], env);
    assert.equal(read.code, 0, read.stderr);
    assert.deepEqual(JSON.parse(read.stdout).data, { password: 's3cret', user: 'app' });
    const list = await runWard(['list', 'secret/app'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(list.stdout.trim().split('\n').slice(2), ['db']);
    const kvGet = await runWard(['kv', 'get', '-format=json', 'secret/app/db'], env);
    assert.equal(kvGet.code, 0, kvGet.stderr);
    assert.deepEqual(JSON.parse(kvGet.stdout).data, { password: 's3cret', user: 'app' }, 'kv get sees version 1');
    assert.equal((await runWard(['delete', 'secret/app/db'], env)).code, 0);
    const gone = await runWard(['read', 'secret/app/db'], env);
    assert.equal(gone.code, 2, `a deleted secret is not found: ${gone.stdout}${gone.stderr}`);
  });

  it('ward server -dev lists secret/ as kv version 2', async () => {
    const dev = await startDev([]);
    const mount = await secretMount(dev.env);
    assert.equal(mount.type, 'kv');
    assert.equal(mount.description, 'key/value secret storage');
    assert.deepEqual(mount.options, { version: '2' });
    dev.ward.child.kill('SIGTERM');
    assert.equal(await dev.ward.exited, 0);
  });

  it('ward server -dev -dev-kv-v1 lists secret/ as kv version 1 and writes version-1 paths', async () => {
    const dev = await startDev(['-dev-kv-v1']);
    const mount = await secretMount(dev.env);
    assert.equal(mount.type, 'kv');
    assert.deepEqual(mount.options, { version: '1' });
    assert.equal((await runWard(['write', 'secret/foo', 'bar=baz'], dev.env)).code, 0);
    const read = await runWard(['read', '-field=bar', 'secret/foo'], dev.env);
    assert.equal(read.stdout.trim(), 'baz');
    dev.ward.child.kill('SIGTERM');
    assert.equal(await dev.ward.exited, 0);
  });
});
