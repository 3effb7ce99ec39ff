import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { request } from '../src/server/testing.js';
import { CrashableWard, until } from './crash-ward.testing.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, startSlapd } from './slapd.js';

/**
 * A real crash of bin/ward between the directory change of a static-role rotation and the save
 * of the rotated role: the test holds SQLite's write lock so that the save blocks, then SIGKILLs
 * the server. The write-ahead record, saved before the directory changed, must bring the new
 * password back after the restart.
 */
describe('ldap static role: SIGKILL between the directory change and the save', () => {
  let slapd: Slapd;
  let w: CrashableWard;

  before(async () => {
    slapd = await startSlapd();
    w = await CrashableWard.create('ward-ldap-crash-');
  });
  after(async () => {
    await w?.dispose();
    await slapd?.stop();
  });

  it('static-cred after the restart returns the password the directory has', async () => {
    let url = await w.start();
    const { key, token } = await w.initialize(url);
    assert.equal((await request(url, 'POST', 'sys/mounts/ldap', { token, body: { type: 'ldap' } })).status, 204);
    const engine = { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url };
    assert.equal((await request(url, 'POST', 'ldap/config', { token, body: engine })).status, 204);
    const dn = await slapd.addUser('crashy', 'crashy-initial');
    const role = { dn, username: 'crashy', rotation_period: '1h' };
    assert.equal((await request(url, 'POST', 'ldap/static-role/crashy', { token, body: role })).status, 204);
    const old = (await request(url, 'GET', 'ldap/static-cred/crashy', { token })).body.data.password;
    assert.ok(await slapd.canBind(dn, old));

    // slapd frozen: the rotation saves its write-ahead record, then waits on the directory.
    const db = new Database(w.dbPath, { timeout: 10_000 });
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
      assert.equal(await w.kill(), 'SIGKILL');
      assert.ok(walRecord.get(), 'killed before the rotation finished: its write-ahead record is still there');
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
    assert.ok((await rotation) instanceof Error, 'the rotate-role request died with the server');

    url = await w.start();
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
