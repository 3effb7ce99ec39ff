import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { startWard, type WardProcess } from './ward-process.js';

// Issue 28 point 7: when the disk is full a write answers 507 "storage full" and the server logs
// one line per refused write, not a bare 500 with a stack trace. Through bin/ward, its SQLite file
// on a 3 MiB tmpfs mounted in a mount namespace of its own (so nothing outlives the process).
const STACK_LINE = /^\s+at .*:\d+:\d+\)?$/m;

/** Whether this machine lets us mount a tmpfs in a new mount namespace (root, or the capability). */
function canMountTmpfs(): boolean {
  try {
    execFileSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /mnt'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

describe('a full disk (issue 28 point 7)', { skip: canMountTmpfs() ? false : 'needs to mount a tmpfs' }, () => {
  let dir: string;
  let ward: WardProcess;
  let url = '';
  let token = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-full-'));
    const data = join(dir, 'data');
    await mkdir(data);
    const config = join(dir, 'ward.hcl');
    await writeFile(
      config,
      `storage "sqlite" {\n  path = "${join(data, 'ward.db')}"\n}\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
    const mountThen = `mount -t tmpfs -o size=3m tmpfs '${data}' && exec "$@"`;
    ward = startWard(['server', `-config=${config}`], {}, [
      'unshare',
      '-m',
      '--propagation',
      'private',
      'sh',
      '-c',
      mountThen,
      'sh',
    ]);
    [, url = ''] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
    const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
    token = init.body.root_token;
    await request(url, 'PUT', 'sys/unseal', { body: { key: init.body.keys_base64[0] } });
  });
  after(async () => {
    ward?.child.kill('SIGKILL');
    await ward?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 507 storage full, logs one line per refused write, and still serves reads', async () => {
    const value = Buffer.alloc(96 * 1024, 1).toString('base64');
    let written = 0;
    const refused = [];
    for (let i = 0; i < 200 && refused.length < 3; i++) {
      const res = await request(url, 'PUT', `secret/fill-${i}`, { token, body: { value } });
      if (res.status === 204) written++;
      else refused.push(res);
    }
    assert.ok(written > 0, 'some writes fit');
    assert.equal(refused.length, 3, 'the disk filled up');
    for (const res of refused) {
      assert.equal(res.status, 507, JSON.stringify(res.body));
      assert.match(res.body.errors[0], /^storage full/);
    }
    const log = ward.output();
    assert.doesNotMatch(log, STACK_LINE);
    assert.equal(log.match(/storage full/g)?.length, 3, log);
    assert.equal((await request(url, 'GET', 'secret/fill-0', { token })).status, 200);
  });
});
