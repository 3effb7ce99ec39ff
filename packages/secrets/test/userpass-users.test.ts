import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('userpass users over HTTP', () => {
  let t: TestServer;
  const login = (name: string, password: string) =>
    t.request('POST', `auth/userpass/login/${name}`, { token: null, body: { password } });

  before(async () => {
    t = await startTestServer();
    await t.request('POST', 'sys/auth/userpass', { body: { type: 'userpass' } });
  });
  after(() => t.stop());

  it('reads every token_* key plus the spec’s max_ttl, policies and ttl, never the password', async () => {
    const w = await t.request('POST', 'auth/userpass/users/reader', {
      body: {
        password: 'pw',
        token_policies: 'b, a',
        token_ttl: '1h',
        token_max_ttl: 7200,
        token_bound_cidrs: '127.0.0.1/32',
      },
    });
    assert.equal(w.status, 204);
    const res = await t.request('GET', 'auth/userpass/users/reader');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, {
      token_bound_cidrs: ['127.0.0.1'],
      token_explicit_max_ttl: 0,
      token_max_ttl: 7200,
      token_no_default_policy: false,
      token_num_uses: 0,
      token_period: 0,
      token_policies: ['b', 'a'],
      token_ttl: 3600,
      token_type: 'default',
      policies: ['b', 'a'],
      ttl: 3600,
      max_ttl: 7200,
    });
  });

  it('maps the legacy names onto the token_* fields', async () => {
    await t.request('POST', 'auth/userpass/users/legacy', {
      body: { password: 'pw', policies: 'Admin,dev,dev', ttl: 60, max_ttl: '10m', bound_cidrs: ['10.0.0.0/8'] },
    });
    const data = (await t.request('GET', 'auth/userpass/users/legacy')).body.data;
    assert.deepEqual(data.token_policies, ['admin', 'dev']);
    assert.deepEqual(data.policies, ['admin', 'dev']);
    assert.equal(data.token_ttl, 60);
    assert.equal(data.token_max_ttl, 600);
    assert.deepEqual(data.bound_cidrs, ['10.0.0.0/8']);
  });

  it('validates the token fields with the established messages', async () => {
    const bad = async (body: Record<string, unknown>, message: string) => {
      const res = await t.request('POST', 'auth/userpass/users/badfields', { body: { password: 'pw', ...body } });
      assert.equal(res.status, 400, message);
      assert.deepEqual(res.body.errors, [message]);
    };
    await bad({ token_ttl: '2h', token_max_ttl: '1h' }, "'token_ttl' cannot be greater than 'token_max_ttl'");
    await bad({ token_num_uses: -1 }, "'token_num_uses' cannot be negative");
    await bad({ token_type: 'default-service' }, `invalid 'token_type' value "default-service"`);
    await bad(
      { token_type: 'batch', token_period: 60 },
      "'token_type' cannot be 'batch' or 'default_batch' when set to generate periodic tokens",
    );
    await bad(
      { token_type: 'batch', token_num_uses: 3 },
      "'token_type' cannot be 'batch' or 'default_batch' when set to generate tokens with limited use count",
    );
  });

  it('needs a password to create, not to update, and changes it through /password', async () => {
    const missing = await t.request('POST', 'auth/userpass/users/nopw', { body: { token_ttl: 60 } });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.errors, ['missing password']);
    await t.request('POST', 'auth/userpass/users/pwuser', { body: { password: 'one' } });
    assert.equal((await t.request('POST', 'auth/userpass/users/pwuser', { body: { token_ttl: 60 } })).status, 204);
    assert.equal((await login('pwuser', 'one')).status, 200, 'the update kept the password');
    const change = await t.request('POST', 'auth/userpass/users/PWUSER/password', { body: { password: 'two' } });
    assert.equal(change.status, 204);
    assert.equal((await login('pwuser', 'one')).status, 403);
    assert.equal((await login('pwuser', 'two')).status, 200);
    const gone = await t.request('POST', 'auth/userpass/users/ghost/password', { body: { password: 'x' } });
    assert.equal(gone.status, 400);
    assert.deepEqual(gone.body.errors, ['username does not exist']);
    const empty = await t.request('POST', 'auth/userpass/users/pwuser/password', { body: {} });
    assert.deepEqual(empty.body.errors, ['missing password']);
  });

  it('replaces policies through /policies from a comma string or an array', async () => {
    await t.request('POST', 'auth/userpass/users/pol', { body: { password: 'pw' } });
    assert.equal(
      (await t.request('POST', 'auth/userpass/users/pol/policies', { body: { policies: 'b,A' } })).status,
      204,
    );
    assert.deepEqual((await t.request('GET', 'auth/userpass/users/pol')).body.data.token_policies, ['a', 'b']);
    await t.request('POST', 'auth/userpass/users/pol/policies', { body: { token_policies: ['x'] } });
    assert.deepEqual((await t.request('GET', 'auth/userpass/users/pol')).body.data.token_policies, ['x']);
    const auth = (await login('pol', 'pw')).body.auth;
    assert.deepEqual(auth.token_policies, ['default', 'x']);
  });

  it('lists, deletes (204 even when absent) and answers 404 for a missing user', async () => {
    await t.request('POST', 'auth/userpass/users/gone', { body: { password: 'pw' } });
    const list = await t.request('GET', 'auth/userpass/users?list=true');
    assert.ok(list.body.data.keys.includes('gone'));
    assert.equal((await t.request('DELETE', 'auth/userpass/users/gone')).status, 204);
    assert.equal((await t.request('DELETE', 'auth/userpass/users/gone')).status, 204);
    const read = await t.request('GET', 'auth/userpass/users/gone');
    assert.equal(read.status, 404);
    assert.deepEqual(read.body, { errors: [] });
    assert.equal((await login('gone', 'pw')).status, 403);
  });

  it('tells create from update for the ACL', async () => {
    await t.request('PUT', 'sys/policies/acl/up-create', {
      body: { policy: 'path "auth/userpass/users/*" { capabilities = ["create"] }' },
    });
    const token = (await t.request('POST', 'auth/token/create', { body: { policies: ['up-create'] } })).body.auth
      .client_token;
    const create = await t.request('POST', 'auth/userpass/users/acl1', { token, body: { password: 'pw' } });
    assert.equal(create.status, 204);
    const update = await t.request('POST', 'auth/userpass/users/acl1', { token, body: { password: 'pw2' } });
    assert.equal(update.status, 403);
  });

  it('locks a user out after 5 failures for 15 minutes, listed and unlockable in sys/locked-users', async () => {
    const clock = t.clock as FakeClock;
    await t.request('POST', 'auth/userpass/users/locky', { body: { password: 'pw' } });
    for (let i = 0; i < 5; i++) assert.equal((await login('locky', 'bad')).status, 403);
    const locked = await login('locky', 'pw');
    assert.equal(locked.status, 403, 'the right password is refused while locked');
    assert.deepEqual(locked.body.errors, ['permission denied']);
    clock.advance(15 * 60_000 + 1000);
    assert.equal((await login('locky', 'pw')).status, 200, 'the lock ends after 15 minutes');
    for (let i = 0; i < 5; i++) await login('locky', 'bad');
    assert.equal((await login('locky', 'pw')).status, 403);
    const list = await t.request('GET', 'sys/locked-users');
    assert.equal(list.status, 200);
    const accessor = (await t.request('GET', 'sys/auth')).body.data['userpass/'].accessor;
    assert.deepEqual(list.body.data, {
      by_namespace: [
        {
          namespace_id: 'root',
          namespace_path: '',
          counts: 1,
          mount_accessors: [{ mount_accessor: accessor, counts: 1, alias_identifiers: ['locky'] }],
        },
      ],
      total: 1,
    });
    const plain = (await t.request('POST', 'auth/token/create', { body: { policies: ['default'] } })).body.auth;
    assert.equal((await t.request('GET', 'sys/locked-users', { token: plain.client_token })).status, 403, 'sudo only');
    const unlock = await t.request('POST', `sys/locked-users/${accessor}/unlock/locky`);
    assert.equal(unlock.status, 204);
    assert.equal((await login('locky', 'pw')).status, 200);
    assert.deepEqual((await t.request('GET', 'sys/locked-users')).body.data, { by_namespace: [], total: 0 });
  });

  it('lists locked users of the namespace and those below it by decreasing count; unlocks only in the namespace', async () => {
    const team = { 'X-Vault-Namespace': 'lockteam' };
    assert.equal((await t.request('POST', 'sys/namespaces/lockteam')).status, 200);
    assert.equal(
      (await t.request('POST', 'sys/auth/userpass', { headers: team, body: { type: 'userpass' } })).status,
      204,
    );
    const lockOut = async (name: string, headers: Record<string, string> = {}) => {
      await t.request('POST', `auth/userpass/users/${name}`, { headers, body: { password: 'pw' } });
      for (let i = 0; i < 5; i++) {
        const res = await t.request('POST', `auth/userpass/login/${name}`, {
          token: null,
          headers,
          body: { password: 'bad' },
        });
        assert.equal(res.status, 403);
      }
    };
    await lockOut('root-user');
    await lockOut('team-a', team);
    await lockOut('team-b', team);
    const rootAccessor = (await t.request('GET', 'sys/auth')).body.data['userpass/'].accessor;
    const teamAccessor = (await t.request('GET', 'sys/auth', { headers: team })).body.data['userpass/'].accessor;
    const teamReport = {
      namespace_path: 'lockteam/',
      counts: 2,
      mount_accessors: [{ mount_accessor: teamAccessor, counts: 2, alias_identifiers: ['team-a', 'team-b'] }],
    };

    const fromRoot = (await t.request('GET', 'sys/locked-users')).body.data;
    assert.equal(fromRoot.total, 3);
    assert.deepEqual(
      fromRoot.by_namespace.map(({ namespace_id, ...rest }: { namespace_id: string }) => rest),
      [
        teamReport,
        {
          namespace_path: '',
          counts: 1,
          mount_accessors: [{ mount_accessor: rootAccessor, counts: 1, alias_identifiers: ['root-user'] }],
        },
      ],
    );
    const fromTeam = (await t.request('GET', 'sys/locked-users', { headers: team })).body.data;
    assert.equal(fromTeam.total, 2);
    assert.deepEqual(fromTeam.by_namespace.length, 1);
    assert.deepEqual(fromTeam.by_namespace[0].mount_accessors, teamReport.mount_accessors);

    // With mount_accessor: that mount of the request's namespace only, listed even when nobody is locked there.
    const one = (await t.request('GET', `sys/locked-users?mount_accessor=${teamAccessor}`)).body.data;
    assert.deepEqual(one.by_namespace[0].mount_accessors, [
      { mount_accessor: teamAccessor, counts: 0, alias_identifiers: [] },
    ]);
    assert.equal(one.total, 0);

    // A parent cannot unlock through a child's accessor; the child's own sys/ can.
    await t.request('POST', `sys/locked-users/${teamAccessor}/unlock/team-a`);
    assert.equal((await t.request('GET', 'sys/locked-users', { headers: team })).body.data.total, 2);
    await t.request('POST', `sys/locked-users/${teamAccessor}/unlock/team-a`, { headers: team });
    assert.equal((await t.request('GET', 'sys/locked-users', { headers: team })).body.data.total, 1);
    await t.request('POST', `sys/locked-users/${teamAccessor}/unlock/team-b`, { headers: team });
    await t.request('POST', `sys/locked-users/${rootAccessor}/unlock/root-user`);
    assert.deepEqual((await t.request('GET', 'sys/locked-users')).body.data, { by_namespace: [], total: 0 });
  });

  it('does not stall other requests during a login storm', async () => {
    await t.request('POST', 'auth/userpass/users/storm', { body: { password: 'pw' } });
    await t.request('POST', 'secret/data/storm', { body: { data: { a: 1 } } });
    const order: string[] = [];
    const storm = Array.from({ length: 24 }, (_, i) =>
      login('storm', i % 2 === 0 ? 'pw' : 'bad').then(() => order.push('login')),
    );
    // Give the storm a head start so its hashes are queued before the read arrives.
    await new Promise((r) => setImmediate(r));
    const read = t.request('GET', 'secret/data/storm').then((res) => {
      order.push('read');
      return res;
    });
    await Promise.all([...storm, read]);
    assert.equal((await read).status, 200);
    const position = order.indexOf('read');
    assert.ok(position < order.length / 2, `the read finished at position ${position} of ${order.length}`);
  });
});

describe('userpass mount options', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('takes the bcrypt cost from the mount options and refuses a bad one', async () => {
    const ok = await t.request('POST', 'sys/auth/cheap', { body: { type: 'userpass', options: { bcrypt_cost: '4' } } });
    assert.equal(ok.status, 204, JSON.stringify(ok.body));
    await t.request('POST', 'auth/cheap/users/u', { body: { password: 'pw' } });
    const login = await t.request('POST', 'auth/cheap/login/u', { token: null, body: { password: 'pw' } });
    assert.equal(login.status, 200);
    const bad = await t.request('POST', 'sys/auth/bad', { body: { type: 'userpass', options: { bcrypt_cost: '99' } } });
    assert.equal(bad.status, 400);
  });

  it('can switch the lockout off', async () => {
    await t.request('POST', 'sys/auth/open', { body: { type: 'userpass', options: { lockout_disable: 'true' } } });
    await t.request('POST', 'auth/open/users/v', { body: { password: 'pw' } });
    for (let i = 0; i < 6; i++) await t.request('POST', 'auth/open/login/v', { token: null, body: { password: 'x' } });
    const res = await t.request('POST', 'auth/open/login/v', { token: null, body: { password: 'pw' } });
    assert.equal(res.status, 200);
  });
});
