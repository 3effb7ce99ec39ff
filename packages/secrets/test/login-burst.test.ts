import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { type SqliteWard, startSqliteWard } from './ward-process.js';

// Issue 28 point 4: a burst of correct logins beyond the lockout threshold waits for a place and
// succeeds; it is never answered as wrong credentials. Through bin/ward on SQLite storage, whose
// durable writes keep a login's check running long enough for the burst to overlap.
describe('a burst of correct logins (issue 28 point 4)', () => {
  let dir: string;
  let w: SqliteWard;
  const call = (method: string, path: string, body?: unknown, token: string | null = w.rootToken) =>
    request(w.url, method, path, { token, body });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-login-burst-'));
    w = await startSqliteWard(dir);
    const userpass = { type: 'userpass', options: { bcrypt_cost: '4' } };
    assert.equal((await call('POST', 'sys/auth/userpass', userpass)).status, 204);
    assert.equal((await call('POST', 'sys/auth/approle', { type: 'approle' })).status, 204);
  });
  after(async () => {
    w?.ward.child.kill('SIGTERM');
    await w?.ward.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('userpass: 20 concurrent correct logins for one user all succeed', async () => {
    assert.equal((await call('POST', 'auth/userpass/users/alice', { password: 'right' })).status, 204);
    const logins = Array.from({ length: 20 }, () =>
      call('POST', 'auth/userpass/login/alice', { password: 'right' }, null),
    );
    const statuses = (await Promise.all(logins)).map((r) => r.status);
    assert.deepEqual(statuses, Array(20).fill(200));
  });

  it('userpass: 60 concurrent wrong guesses still check at most the threshold, then the user is locked', async () => {
    assert.equal((await call('POST', 'auth/userpass/users/bob', { password: 'right' })).status, 204);
    const guesses = Array.from({ length: 60 }, (_, i) =>
      call('POST', 'auth/userpass/login/bob', { password: `wrong-${i}` }, null),
    );
    const answers = (await Promise.all(guesses)).map((r) => `${r.status} ${r.body.errors}`);
    assert.equal(answers.filter((a) => a === '403 invalid username or password').length, 5, answers.join('\n'));
    assert.equal(answers.filter((a) => a === '403 permission denied').length, 55, answers.join('\n'));
    const right = await call('POST', 'auth/userpass/login/bob', { password: 'right' }, null);
    assert.deepEqual([right.status, right.body.errors], [403, ['permission denied']]);
  });

  it('AppRole: 30 concurrent correct logins with a secret id of 100 uses all succeed', async () => {
    assert.equal((await call('POST', 'auth/approle/role/app', { token_policies: 'default' })).status, 204);
    const roleId = (await call('GET', 'auth/approle/role/app/role-id')).body.data.role_id;
    const secretId = (await call('POST', 'auth/approle/role/app/secret-id', { num_uses: 100 })).body.data.secret_id;
    const logins = Array.from({ length: 30 }, () =>
      call('POST', 'auth/approle/login', { role_id: roleId, secret_id: secretId }, null),
    );
    const statuses = (await Promise.all(logins)).map((r) => r.status);
    assert.deepEqual(statuses, Array(30).fill(200));
  });
});
