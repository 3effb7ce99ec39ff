import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

const DENIED = 'permission denied';

describe('userpass login over HTTP', () => {
  let t: TestServer;
  const login = (name: string, password: string, path = 'auth/userpass') =>
    t.request('POST', `${path}/login/${name}`, { token: null, body: { password } });
  const writeUser = async (name: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', `auth/userpass/users/${name}`, { body });
    assert.equal(res.status, 204, JSON.stringify(res.body));
  };

  before(async () => {
    t = await startTestServer();
    assert.equal((await t.request('POST', 'sys/auth/userpass', { body: { type: 'userpass' } })).status, 204);
    await t.request('PUT', 'sys/policies/acl/dev', {
      body: { policy: 'path "secret/data/dev/*" { capabilities = ["create", "read", "update"] }' },
    });
  });
  after(() => t.stop());

  it('logs in with the established auth block and a token bound to a new entity', async () => {
    await writeUser('alice', { password: 'pw1', token_policies: 'dev' });
    const res = await login('alice', 'pw1');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.lease_id, '');
    assert.equal(res.body.renewable, false);
    assert.equal(res.body.data, null);
    const auth = res.body.auth;
    assert.match(auth.client_token, /^hvs\./);
    assert.equal(typeof auth.accessor, 'string');
    assert.deepEqual(auth.policies, ['default', 'dev']);
    assert.deepEqual(auth.token_policies, ['default', 'dev']);
    assert.equal('identity_policies' in auth, false, 'absent when the entity adds nothing');
    assert.deepEqual(auth.metadata, { username: 'alice' });
    assert.equal(auth.lease_duration, 2764800);
    assert.equal(auth.renewable, true);
    assert.match(auth.entity_id, /^[0-9a-f-]{36}$/);
    assert.equal(auth.token_type, 'service');
    assert.equal(auth.orphan, true);
    assert.equal(auth.mfa_requirement, null);

    const self = await t.request('GET', 'auth/token/lookup-self', { token: auth.client_token });
    assert.equal(self.status, 200);
    assert.equal(self.body.data.display_name, 'userpass-alice');
    assert.equal(self.body.data.path, 'auth/userpass/login/alice');
    assert.equal(self.body.data.entity_id, auth.entity_id);
    assert.deepEqual(self.body.data.meta, { username: 'alice' });
    const write = await t.request('POST', 'secret/data/dev/x', { token: auth.client_token, body: { data: { a: 1 } } });
    assert.equal(write.status, 200, 'the token works under its policies');

    const again = await login('alice', 'pw1');
    assert.equal(again.body.auth.entity_id, auth.entity_id, 'the next login finds the same entity');
    const entity = await t.request('GET', `identity/entity/id/${auth.entity_id}`);
    assert.equal(entity.status, 200);
    assert.equal(entity.body.data.aliases.length, 1);
    assert.equal(entity.body.data.aliases[0].name, 'alice');
    assert.equal(entity.body.data.aliases[0].mount_type, 'userpass');
    assert.equal(entity.body.data.aliases[0].mount_path, 'auth/userpass/');
    assert.match(entity.body.data.name, /^entity-[0-9a-f-]{36}$/);
  });

  it('answers a wrong password and an unknown user with the same 403', async () => {
    await writeUser('bob', { password: 'right' });
    const wrong = await login('bob', 'wrong');
    const unknown = await login('nobody', 'wrong');
    assert.equal(wrong.status, 403);
    assert.equal(unknown.status, 403);
    assert.deepEqual(wrong.body, unknown.body);
    assert.deepEqual(wrong.body, { errors: ['invalid username or password'] });
  });

  it('takes comparable time for a wrong password and an unknown user', async () => {
    const once = async (name: string) => {
      const start = process.hrtime.bigint();
      await login(name, 'wrong');
      return Number(process.hrtime.bigint() - start);
    };
    await writeUser('timing', { password: 'right', token_policies: [] });
    await once('nobody-warm');
    // Interleaved samples, compared by their minimum: the least disturbed sample of each path is
    // its own cost, so other processes loading the machine do not decide the outcome.
    let known = Number.POSITIVE_INFINITY;
    let unknownUser = Number.POSITIVE_INFINITY;
    // Four: a fifth failure would lock the user, whose refusal is another path.
    for (let i = 0; i < 4; i++) {
      known = Math.min(known, await once('timing'));
      unknownUser = Math.min(unknownUser, await once(`nobody-${i}`));
    }
    // Both run one bcrypt verification of the same cost; a skipped hash would be ~100x faster.
    assert.ok(unknownUser > known / 3, `unknown ${unknownUser} vs known ${known}`);
    assert.ok(known > unknownUser / 3, `known ${known} vs unknown ${unknownUser}`);
  });

  it('treats usernames case-insensitively and enforces the name rules', async () => {
    await writeUser('Carol', { password: 'pw' });
    const list = await t.request('LIST', 'auth/userpass/users');
    assert.ok(list.body.data.keys.includes('carol'));
    assert.ok(!list.body.data.keys.includes('Carol'));
    const res = await login('CAROL', 'pw');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.auth.metadata, { username: 'carol' });
    assert.equal((await t.request('GET', 'auth/userpass/users/cArOl')).status, 200);
    for (const bad of ['-lead', '.lead', 'trail-', 'sp%20ace', 'at@sign']) {
      const r = await t.request('POST', `auth/userpass/users/${bad}`, { body: { password: 'x' } });
      assert.equal(r.status, 404, bad);
    }
    await writeUser('a', { password: 'x' });
    await writeUser('a.b_c-d', { password: 'x' });
  });

  it('refuses a login from outside the bound CIDRs and binds the token to them', async () => {
    await writeUser('far', { password: 'pw', token_bound_cidrs: '10.0.0.0/8' });
    const res = await login('far', 'pw');
    assert.equal(res.status, 403);
    await writeUser('near', { password: 'pw', bound_cidrs: ['127.0.0.1', '10.0.0.0/8'] });
    const ok = await login('near', 'pw');
    assert.equal(ok.status, 200);
    const self = await t.request('GET', 'auth/token/lookup-self', { token: ok.body.auth.client_token });
    assert.deepEqual(self.body.data.bound_cidrs, ['127.0.0.1/32', '10.0.0.0/8']);
  });

  it('limits uses with token_num_uses', async () => {
    await writeUser('once', { password: 'pw', token_num_uses: 2 });
    const auth = (await login('once', 'pw')).body.auth;
    assert.equal(auth.num_uses, 2);
    const use = () => t.request('GET', 'auth/token/lookup-self', { token: auth.client_token });
    assert.equal((await use()).status, 200);
    assert.equal((await use()).status, 200);
    assert.equal((await use()).status, 403);
  });

  it('issues batch tokens when the user asks for them', async () => {
    await writeUser('batcher', { password: 'pw', token_type: 'batch', token_policies: 'dev' });
    const auth = (await login('batcher', 'pw')).body.auth;
    assert.match(auth.client_token, /^hvb\./);
    assert.equal(auth.token_type, 'batch');
    assert.equal(auth.accessor, '');
    assert.equal(auth.renewable, false);
    const read = await t.request('POST', 'secret/data/dev/b', { token: auth.client_token, body: { data: { a: 1 } } });
    assert.equal(read.status, 200);
  });

  it('applies TTLs, no_default_policy, period and explicit max', async () => {
    await writeUser('ttl', {
      password: 'pw',
      token_ttl: '1h',
      token_max_ttl: '2h',
      token_no_default_policy: true,
      token_policies: 'dev',
    });
    const auth = (await login('ttl', 'pw')).body.auth;
    assert.equal(auth.lease_duration, 3600);
    assert.deepEqual(auth.policies, ['dev']);
    await writeUser('periodic', { password: 'pw', token_period: '30m', token_explicit_max_ttl: '1h' });
    const p = (await login('periodic', 'pw')).body.auth;
    assert.equal(p.lease_duration, 1800);
  });

  it('never mints root', async () => {
    await writeUser('rooty', { password: 'pw', token_policies: 'root' });
    const res = await login('rooty', 'pw');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors, ['auth methods cannot create root tokens']);
  });

  it('renews under the user’s current TTL and refuses after a policy change', async () => {
    const clock = t.clock as FakeClock;
    await writeUser('renewer', { password: 'pw', token_ttl: '1h', token_policies: 'dev' });
    const auth = (await login('renewer', 'pw')).body.auth;
    await writeUser('renewer', { token_ttl: '2h' });
    clock.advance(60_000);
    const renewed = await t.request('POST', 'auth/token/renew-self', { token: auth.client_token });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal(renewed.body.auth.lease_duration, 7200);
    const policies = await t.request('POST', 'auth/userpass/users/renewer/policies', {
      body: { policies: 'dev,other' },
    });
    assert.equal(policies.status, 204);
    const refused = await t.request('POST', 'auth/token/renew-self', { token: auth.client_token });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors, ['policies have changed, not renewing']);
  });

  it('works on a mount at another path in a namespace-free setup', async () => {
    assert.equal((await t.request('POST', 'sys/auth/people/corp', { body: { type: 'userpass' } })).status, 204);
    await t.request('POST', 'auth/people/corp/users/dave', { body: { password: 'pw' } });
    const res = await login('dave', 'pw', 'auth/people/corp');
    assert.equal(res.status, 200);
    const self = await t.request('GET', 'auth/token/lookup-self', { token: res.body.auth.client_token });
    assert.equal(self.body.data.display_name, 'people-corp-dave');
  });

  it('refuses the tokens of a disabled entity without revoking them', async () => {
    await writeUser('erin', { password: 'pw' });
    const auth = (await login('erin', 'pw')).body.auth;
    const use = () => t.request('GET', 'auth/token/lookup-self', { token: auth.client_token });
    assert.equal((await use()).status, 200);
    await t.request('POST', `identity/entity/id/${auth.entity_id}`, { body: { disabled: true } });
    const refused = await use();
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, { errors: ['permission denied'] });
    assert.equal((await login('erin', 'pw')).status, 403, 'a login of the disabled entity is refused');
    await t.request('POST', `identity/entity/id/${auth.entity_id}`, { body: { disabled: false } });
    assert.equal((await use()).status, 200, 're-enabling restores the token');
  });

  it('adds entity policies to the token at request time', async () => {
    await writeUser('frank', { password: 'pw' });
    const auth = (await login('frank', 'pw')).body.auth;
    const denied = await t.request('GET', 'secret/data/dev/x', { token: auth.client_token });
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, { errors: [DENIED] });
    await t.request('POST', `identity/entity/id/${auth.entity_id}`, { body: { policies: ['dev'] } });
    assert.equal((await t.request('GET', 'secret/data/dev/x', { token: auth.client_token })).status, 200);
    const caps = await t.request('POST', 'sys/capabilities-self', {
      token: auth.client_token,
      body: { paths: ['secret/data/dev/x'] },
    });
    assert.deepEqual(caps.body.data['secret/data/dev/x'], ['create', 'read', 'update'], 'capabilities count them too');
    const next = (await login('frank', 'pw')).body.auth;
    assert.deepEqual(next.identity_policies, ['dev']);
    assert.deepEqual(next.policies, ['default', 'dev']);
    assert.deepEqual(next.token_policies, ['default']);
    const lookup = await t.request('GET', 'auth/token/lookup-self', { token: auth.client_token });
    assert.deepEqual(lookup.body.data.identity_policies, ['dev'], 'token lookups show them');
    assert.deepEqual(lookup.body.data.policies, ['default']);
  });
  it('fills templated policy paths from the token’s entity', async () => {
    await t.request('PUT', 'sys/policies/acl/own', {
      body: {
        policy: 'path "secret/data/home/{{identity.entity.name}}/*" { capabilities = ["create", "read", "update"] }',
      },
    });
    await writeUser('gina', { password: 'pw', token_policies: 'own' });
    const auth = (await login('gina', 'pw')).body.auth;
    await t.request('POST', `identity/entity/id/${auth.entity_id}`, { body: { name: 'gina-entity' } });
    const mine = await t.request('POST', 'secret/data/home/gina-entity/x', {
      token: auth.client_token,
      body: { data: { a: 1 } },
    });
    assert.equal(mine.status, 200);
    const theirs = await t.request('POST', 'secret/data/home/other/x', {
      token: auth.client_token,
      body: { data: { a: 1 } },
    });
    assert.equal(theirs.status, 403);
  });
});

describe('userpass login token type from the mount tuning', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    await t.request('POST', 'sys/auth/userpass', { body: { type: 'userpass' } });
    await t.request('POST', 'auth/userpass/users/tess', { body: { password: 'pw' } });
  });
  after(() => t.stop());

  it('issues batch tokens when the mount defaults to batch', async () => {
    const tune = await t.request('POST', 'sys/auth/userpass/tune', { body: { token_type: 'default-batch' } });
    assert.equal(tune.status, 204, JSON.stringify(tune.body));
    const res = await t.request('POST', 'auth/userpass/login/tess', { token: null, body: { password: 'pw' } });
    assert.equal(res.body.auth.token_type, 'batch');
    await t.request('POST', 'auth/userpass/users/tess', { body: { token_type: 'service' } });
    const service = await t.request('POST', 'auth/userpass/login/tess', { token: null, body: { password: 'pw' } });
    assert.equal(service.body.auth.token_type, 'service', 'the user’s explicit type wins over a default');
  });
});
