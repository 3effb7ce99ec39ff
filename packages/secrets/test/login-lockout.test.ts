import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 12 point 2: the lockout must hold against concurrent guesses, and must not tell
// existing users from unknown names.
const THRESHOLD = 5;
const INVALID = { status: 403, body: { errors: ['invalid username or password'] } };
const LOCKED = { status: 403, body: { errors: ['permission denied'] } };

describe('login lockout under concurrency (issue 12)', () => {
  let t: TestServer;
  const login = async (name: string, password: string) => {
    const res = await t.request('POST', `auth/userpass/login/${name}`, { token: null, body: { password } });
    return { status: res.status, body: res.body };
  };
  const answers = (results: { status: number; body: unknown }[]) => {
    const counts = { invalid: 0, locked: 0, ok: 0 };
    for (const r of results) {
      if (r.status === 200) counts.ok++;
      else if (JSON.stringify(r) === JSON.stringify(INVALID)) counts.invalid++;
      else if (JSON.stringify(r) === JSON.stringify(LOCKED)) counts.locked++;
      else assert.fail(`unexpected answer ${JSON.stringify(r)}`);
    }
    return counts;
  };

  before(async () => {
    t = await startTestServer();
    // The lowest bcrypt cost: hundreds of racing logins each spend one bcrypt, even when refused.
    const userpass = { type: 'userpass', options: { bcrypt_cost: '4' } };
    assert.equal((await t.request('POST', 'sys/auth/userpass', { body: userpass })).status, 204);
    assert.equal((await t.request('POST', 'sys/auth/approle', { body: { type: 'approle' } })).status, 204);
  });
  after(() => t.stop());

  it('checks at most the threshold of 100 concurrent guesses; the right password sent last does not get in', async () => {
    await t.request('POST', 'auth/userpass/users/target', { body: { password: 'right' } });
    const guesses = Array.from({ length: 100 }, (_, i) => (i === 99 ? 'right' : `wrong-${i}`));
    const counts = answers(await Promise.all(guesses.map((p) => login('target', p))));
    assert.ok(counts.invalid + counts.ok <= THRESHOLD, `passwords checked: ${JSON.stringify(counts)}`);
    if (counts.ok === 0) {
      assert.deepEqual(await login('target', 'right'), LOCKED, 'five failures lock the user');
    }
  });

  it('300 concurrent wrong guesses: at most the threshold are checked, then the user is locked', async () => {
    await t.request('POST', 'auth/userpass/users/storm', { body: { password: 'right' } });
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => login('storm', `wrong-${i}`)));
    const counts = answers(results);
    assert.equal(counts.invalid, THRESHOLD, JSON.stringify(counts));
    assert.equal(counts.locked, 300 - THRESHOLD);
    assert.deepEqual(await login('storm', 'right'), LOCKED);
  });

  it('AppRole: checks at most the threshold of 50 concurrent wrong secret ids', async () => {
    await t.request('POST', 'auth/approle/role/app', { body: { token_policies: 'default' } });
    await t.request('POST', 'auth/approle/role/app/role-id', { body: { role_id: 'app-role-id' } });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.request('POST', 'auth/approle/login', { token: null, body: { role_id: 'app-role-id', secret_id: `s-${i}` } }),
      ),
    );
    const checked = results.filter((r) => r.status === 400).length;
    const refused = results.filter((r) => r.status === 403).length;
    assert.equal(checked, THRESHOLD);
    assert.equal(refused, 50 - THRESHOLD);
  });

  it('answers an unknown name exactly as an existing user, before and after the lock', async () => {
    await t.request('POST', 'auth/userpass/users/exists', { body: { password: 'right' } });
    const timings: Record<string, number[]> = { exists: [], 'no-such-user': [] };
    for (let i = 0; i < THRESHOLD + 2; i++) {
      const answersNow = [];
      for (const name of ['exists', 'no-such-user']) {
        const started = performance.now();
        answersNow.push(await login(name, `wrong-${i}`));
        timings[name]?.push(Math.round(performance.now() - started));
      }
      assert.deepEqual(answersNow[0], answersNow[1], `attempt ${i + 1}`);
      assert.deepEqual(answersNow[0], i < THRESHOLD ? INVALID : LOCKED, `attempt ${i + 1}`);
    }
    // Reported, not asserted: timing depends on the machine's load.
    console.log(`# login times (ms), existing user: ${timings.exists}; unknown name: ${timings['no-such-user']}`);
  });
});
