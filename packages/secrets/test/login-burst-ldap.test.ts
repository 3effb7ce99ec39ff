import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { ENGINE_DN, ENGINE_PASSWORD, type Slapd, SUFFIX, startSlapd } from './slapd.js';
import { type SqliteWard, startSqliteWard } from './ward-process.js';

// Issue 28 point 4, LDAP auth: a burst of correct logins beyond the lockout threshold waits for a
// place and succeeds; wrong guesses still check at most the threshold. Through bin/ward on SQLite
// storage against a real slapd, whose bind round trips keep the burst's checks overlapping.
describe('a burst of LDAP logins through bin/ward (issue 28 point 4)', () => {
  let dir: string;
  let slapd: Slapd;
  let w: SqliteWard;
  const call = (method: string, path: string, body?: unknown, token: string | null = w.rootToken) =>
    request(w.url, method, path, { token, body });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-login-burst-ldap-'));
    slapd = await startSlapd();
    await slapd.addUser('alice', 'alice-pw');
    await slapd.addUser('bob', 'bob-pw');
    w = await startSqliteWard(dir);
    assert.equal((await call('POST', 'sys/auth/ldap', { type: 'ldap' })).status, 204);
    const config = {
      url: slapd.url,
      binddn: ENGINE_DN,
      bindpass: ENGINE_PASSWORD,
      userdn: `ou=users,${SUFFIX}`,
      userattr: 'cn',
    };
    assert.equal((await call('POST', 'auth/ldap/config', config)).status, 204);
  });
  after(async () => {
    w?.ward.child.kill('SIGTERM');
    await w?.ward.exited;
    await slapd?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('20 concurrent correct logins for one user all succeed', async () => {
    const logins = Array.from({ length: 20 }, () =>
      call('POST', 'auth/ldap/login/alice', { password: 'alice-pw' }, null),
    );
    const answers = (await Promise.all(logins)).map((r) => `${r.status} ${r.body.errors ?? ''}`);
    assert.deepEqual(answers, Array(20).fill('200 '), answers.join('\n'));
  });

  it('60 concurrent wrong guesses still check at most the threshold, then the user is locked', async () => {
    const guesses = Array.from({ length: 60 }, (_, i) =>
      call('POST', 'auth/ldap/login/bob', { password: `wrong-${i}` }, null),
    );
    const answers = (await Promise.all(guesses)).map((r) => `${r.status} ${r.body.errors}`);
    const checked = answers.filter((a) => a !== '403 permission denied');
    assert.ok(checked.length <= 5, answers.join('\n'));
    assert.ok(
      checked.every((a) => a === '403 ldap operation failed: failed to bind as user'),
      answers.join('\n'),
    );
    const right = await call('POST', 'auth/ldap/login/bob', { password: 'bob-pw' }, null);
    assert.deepEqual([right.status, right.body.errors], [403, ['permission denied']]);
  });
});
