import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

/** Makes a log path unwritable even for root: a directory now stands where the file was. */
async function breakLog(path: string): Promise<void> {
  await rm(path);
  await mkdir(path);
}

describe('audit failure rule (file devices)', () => {
  let t: TestServer;
  let a: string;
  let b: string;
  before(async () => {
    t = await startTestServer();
    const dir = await mkdtemp(join(tmpdir(), 'ward-audit-'));
    a = join(dir, 'a.log');
    b = join(dir, 'b.log');
  });
  after(() => t.stop());

  it('refuses a file path the server cannot open', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-audit-'));
    const res = await t.request('POST', 'sys/audit/bad', { body: { type: 'file', options: { file_path: dir } } });
    assert.equal(res.status, 400);
    assert.match(res.body.errors[0], /^sanity check failed; unable to open/);
  });

  it('fails every request with 500 while the only device cannot write, and recovers when the file can be created again', async () => {
    assert.equal(
      (await t.request('POST', 'sys/audit/a', { body: { type: 'file', options: { file_path: a } } })).status,
      204,
    );
    await breakLog(a);
    const res = await t.request('POST', 'secret/data/x', { body: { data: { v: 'w' } } });
    assert.deepEqual([res.status, res.body], [500, { errors: ['internal error'] }]);
    assert.equal((await t.request('GET', 'sys/audit')).status, 500);

    await rmdir(a);
    assert.equal((await t.request('GET', 'sys/mounts')).status, 200, 'the log is created again on the next entry');
    assert.match(await readFile(a, 'utf8'), /"path":"sys\/mounts"/);
  });

  it('serves requests while another device can write', async () => {
    assert.equal(
      (await t.request('POST', 'sys/audit/b', { body: { type: 'file', options: { file_path: b } } })).status,
      204,
    );
    await breakLog(a);
    const res = await t.request('POST', 'secret/data/y', { body: { data: { v: 'w' } } });
    assert.equal(res.status, 200);
    const lines = (await readFile(b, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.filter((e) => e.request.path === 'secret/data/y').map((e) => e.type),
      ['request', 'response'],
    );
  });
});
