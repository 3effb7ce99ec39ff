import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { request } from '../src/server/testing.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, startSlapd } from './slapd.js';
import { startWard, type WardProcess } from './ward-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds; fails after `tries` attempts 50 ms apart. */
async function until(what: string, check: () => Promise<boolean> | boolean, tries = 400): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`gave up waiting until ${what}`);
}

/**
 * A real crash of bin/ward between the directory change of a static-role rotation and the save
 * of the rotated role: the test holds SQLite's write lock so that the save blocks, then SIGKILLs
 * the server. The write-ahead record, saved before the directory changed, must bring the new
 * password back after the restart.
 */
describe('ldap static role: SIGKILL between the directory change and the save', () => {
  let slapd: Slapd;
  let dir: string;
  let config: string;
  let dbPath: string;
  let ward: WardProcess | undefined;

  const start = async () => {
    ward = startWard(['server', `-config=${config}`]);
    const [, url] = await ward.waitFor(/listening: url=(http:\/\/\S+)/);
    return url as string;
  };

  before(async () => {
    slapd = await startSlapd();
    dir = await mkdtemp(join(tmpdir(), 'ward-ldap-crash-'));
    config = join(dir, 'ward.hcl');
    dbPath = join(dir, 'data', 'ward.db');
    await writeFile(
      config,
      `storage "sqlite" {\n  path = "${dbPath}"\n}\n\nlistener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n`,
    );
  });
  after(async () => {
    ward?.child.kill('SIGKILL');
    await ward?.exited;
    await slapd?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('static-cred after the restart returns the password the directory has', async () => {
    let url = await start();
    const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 1, secret_threshold: 1 } });
    const [key] = init.body.keys;
    const token = init.body.root_token;
    await request(url, 'PUT', 'sys/unseal', { body: { key } });
    assert.equal((await request(url, 'POST', 'sys/mounts/ldap', { token, body: { type: 'ldap' } })).status, 204);
    const engine = { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url };
    assert.equal((await request(url, 'POST', 'ldap/config', { token, body: engine })).status, 204);
    const dn = await slapd.addUser('crashy', 'crashy-initial');
    const role = { dn, username: 'crashy', rotation_period: '1h' };
    assert.equal((await request(url, 'POST', 'ldap/static-role/crashy', { token, body: role })).status, 204);
    const old = (await request(url, 'GET', 'ldap/static-cred/crashy', { token })).body.data.password;
    assert.ok(await slapd.canBind(dn, old));

    // slapd frozen: the rotation saves its write-ahead record, then waits on the directory.
    const db = new Database(dbPath, { timeout: 10_000 });
    const walRecord = db.prepare<[], string>("SELECT key FROM entries WHERE key LIKE '%static-wal/crashy'").pluck();
    await slapd.pause();
    const rotation = request(url, 'POST', 'ldap/rotate-role/crashy', { token }).catch((err: Error) => err);
    try {
      await until('the write-ahead record is saved', () => walRecord.get() !== undefined);
      // Ward's next write (the rotated role) now blocks on the lock; the directory may go on.
      db.exec('BEGIN EXCLUSIVE');
    } finally {
      slapd.resume();
    }
    try {
      await until('the directory has the new password', async () => !(await slapd.canBind(dn, old)));
      ward?.child.kill('SIGKILL');
      assert.equal(await ward?.exited, 'SIGKILL');
      assert.ok(walRecord.get(), 'killed before the rotation finished: its write-ahead record is still there');
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
    assert.ok((await rotation) instanceof Error, 'the rotate-role request died with the server');

    url = await start();
    await request(url, 'PUT', 'sys/unseal', { body: { key } });
    // The first pass of the schedule finishes the rotation with the recorded password.
    let password = '';
    await until('static-cred returns a password that binds', async () => {
      password = (await request(url, 'GET', 'ldap/static-cred/crashy', { token })).body.data.password;
      return slapd.canBind(dn, password);
    });
    assert.notEqual(password, old);
  });
});
