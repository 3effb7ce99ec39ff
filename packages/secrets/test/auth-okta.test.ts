import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '@ward/base';
import type { Agent } from 'undici';
import { oktaBackendFactory } from '../src/auth/okta/index.js';
import { BUILTIN_BACKENDS } from '../src/catalog.js';
import { runWardInProcess, tempHome } from '../src/cli/testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';
import { FAKE_OKTA_API_TOKEN, type FakeOkta, startFakeOkta } from './fakes/okta.js';
import { makeTlsIdentity } from './fakes/tls-identity.js';

// Issue 37: the Okta auth method against a fake Okta organization over real TLS (authn API,
// factor verification and push polling, the users API's groups).

describe('Okta auth method', () => {
  let t: TestServer;
  let okta: FakeOkta;
  let agent: Agent;
  const login = (username: string, body: Record<string, unknown>) =>
    t.request('POST', `auth/okta/login/${username}`, { token: null, body });

  before(async () => {
    const tls = await makeTlsIdentity(['*.okta.test']);
    agent = tls.agent();
    okta = await startFakeOkta(tls);
    okta.addUser('alice@example.com', { password: 'pw-alice', groups: ['Engineering', 'everyone', 'unmapped'] });
    okta.addUser('bob@example.com', { password: 'pw-bob', totp: { provider: 'GOOGLE', passCode: '123456' } });
    okta.addUser('carol@example.com', {
      password: 'pw-carol',
      push: { result: 'SUCCESS', waits: 2, correctAnswer: 37 },
    });
    okta.addUser('dave@example.com', { password: 'pw-dave', push: { result: 'REJECTED', waits: 1 } });
    okta.addUser('erin@example.com', { password: 'pw-erin' });
    okta.addUser('frank@example.com', { password: 'pw-frank', status: 'LOCKED_OUT' });
    okta.addUser('gina@example.com', {
      password: 'pw-gina',
      totp: { provider: 'OKTA', passCode: '111111' },
      linkHost: 'elsewhere.test',
    });
    const catalog = {
      mounts: BUILTIN_BACKENDS.mounts,
      auth: new Map([...BUILTIN_BACKENDS.auth, ['okta', oktaBackendFactory(agent)]]),
    };
    t = await startTestServer({ catalog, clock: systemClock });
    await t.ok('POST', 'sys/auth/okta', { type: 'okta' });
  });
  after(async () => {
    await t?.stop();
    await okta?.close();
    await agent?.close();
  });

  it('config: 404 before it is written, org_name required, the API token never shown', async () => {
    assert.equal((await t.request('GET', 'auth/okta/config')).status, 404);
    const missing = await t.request('POST', 'auth/okta/config', { body: { base_url: okta.baseUrl } });
    assert.deepEqual([missing.status, missing.body.errors], [400, ['org_name is missing']]);
    const bad = await t.request('POST', 'auth/okta/config', { body: { org_name: 'a/b' } });
    assert.equal(bad.status, 400);
    await t.ok('POST', 'auth/okta/config', {
      org_name: 'acme',
      base_url: okta.baseUrl,
      api_token: FAKE_OKTA_API_TOKEN,
    });
    const read = await t.ok('GET', 'auth/okta/config');
    assert.equal(read.data.org_name, 'acme');
    assert.equal(read.data.base_url, okta.baseUrl);
    assert.equal(read.data.bypass_okta_mfa, false);
    assert.ok(!('api_token' in read.data));
    assert.deepEqual(read.data.token_policies, []);
  });

  it('users/ and groups/: 404 listings when empty, policies and local groups read back', async () => {
    assert.equal((await t.request('LIST', 'auth/okta/groups')).status, 404);
    await t.ok('POST', 'auth/okta/groups/engineering', { policies: 'eng,Shared' });
    await t.ok('POST', 'auth/okta/groups/local-ops', { policies: ['ops'] });
    await t.ok('POST', 'auth/okta/users/alice@example.com', { policies: 'alice', groups: 'local-ops' });
    assert.deepEqual((await t.ok('LIST', 'auth/okta/groups')).data.keys, ['engineering', 'local-ops']);
    assert.deepEqual((await t.ok('GET', 'auth/okta/users/alice@example.com')).data, {
      policies: ['alice'],
      groups: ['local-ops'],
    });
    assert.deepEqual((await t.ok('GET', 'auth/okta/groups/engineering')).data, { policies: ['eng', 'shared'] });
    assert.equal((await t.request('GET', 'auth/okta/groups/none')).status, 404);
  });

  it('a password login: policies from the user, its Okta groups (every page, case-insensitive) and local groups', async () => {
    const res = await login('alice@example.com', { password: 'pw-alice' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.auth.policies, ['alice', 'default', 'eng', 'ops', 'shared']);
    assert.equal(res.body.auth.metadata.username, 'alice@example.com');
    assert.ok(okta.requests.filter((r) => r.endsWith('/groups')).length >= 3, 'groups listed page by page');
    const token = await t.request('GET', 'auth/token/lookup-self', { token: res.body.auth.client_token });
    assert.equal(token.body.data.display_name, 'okta-alice@example.com');
    const entity = (await t.ok('GET', `identity/entity/id/${res.body.auth.entity_id}`)).data;
    assert.deepEqual(
      entity.aliases.map((a: { name: string; mount_type: string }) => [a.name, a.mount_type]),
      [['alice@example.com', 'okta']],
    );
  });

  it('refusals: a wrong password and a locked-out user are 400, a user with no policy is 400, Okta failing is 502', async () => {
    const wrong = await login('alice@example.com', { password: 'nope' });
    assert.equal(wrong.status, 400);
    assert.match(wrong.body.errors[0], /Okta auth failed.*E0000004/);
    assert.equal((await login('frank@example.com', { password: 'pw-frank' })).status, 400);
    const none = await login('erin@example.com', { password: 'pw-erin' });
    assert.deepEqual([none.status, none.body.errors], [400, ['user is not a member of any authorized policy']]);
    okta.failNext(1);
    assert.equal((await login('alice@example.com', { password: 'pw-alice' })).status, 502);
  });

  it('MFA by TOTP: the provider chooses the factor, a wrong passcode is refused', async () => {
    await t.ok('POST', 'auth/okta/users/bob@example.com', { policies: 'bob' });
    const good = await login('bob@example.com', { password: 'pw-bob', totp: '123456', provider: 'GOOGLE' });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    assert.deepEqual(good.body.auth.policies, ['bob', 'default']);
    const wrong = await login('bob@example.com', { password: 'pw-bob', totp: '000000', provider: 'GOOGLE' });
    assert.equal(wrong.status, 400);
    const otherProvider = await login('bob@example.com', { password: 'pw-bob', totp: '123456' });
    assert.equal(otherProvider.status, 400);
    const noFactor = await login('bob@example.com', { password: 'pw-bob' });
    assert.match(noFactor.body.errors[0], /Push or a TOTP factor is required/);
  });

  it('a factor link outside the organization is not followed (502)', async () => {
    await t.ok('POST', 'auth/okta/users/gina@example.com', { policies: 'gina' });
    const before = okta.requests.length;
    const res = await login('gina@example.com', { password: 'pw-gina', totp: '111111' });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.deepEqual(okta.requests.slice(before), ['POST /api/v1/authn']);
  });

  it('MFA by push: the login waits for the answer, its number is at verify/:nonce meanwhile; a rejection is refused', async () => {
    await t.ok('POST', 'auth/okta/users/carol@example.com', { policies: 'carol' });
    await t.ok('POST', 'auth/okta/users/dave@example.com', { policies: 'dave' });
    assert.equal((await t.request('GET', 'auth/okta/verify/n-1', { token: null })).status, 404);
    const pending = login('carol@example.com', { password: 'pw-carol', nonce: 'n-1' });
    let answer: number | undefined;
    for (let i = 0; i < 40 && answer === undefined; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const v = await t.request('GET', 'auth/okta/verify/n-1', { token: null });
      if (v.status === 200) answer = v.body.data.correct_answer;
    }
    assert.equal(answer, 37);
    const done = await pending;
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(done.body.auth.policies, ['carol', 'default']);
    const rejected = await login('dave@example.com', { password: 'pw-dave' });
    assert.deepEqual(
      [rejected.status, rejected.body.errors],
      [400, ['okta authentication failed: push verification explicitly rejected']],
    );
  });

  it('ward login -method=okta: username in the path, the TOTP passcode in the body', async () => {
    const env = { VAULT_ADDR: t.url, HOME: await tempHome() };
    const args = ['login', '-method=okta', '-format=json', 'username=bob@example.com', 'password=pw-bob'];
    const run = await runWardInProcess([...args, 'totp=123456', 'provider=GOOGLE'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout).auth.token_policies, ['bob', 'default']);
    const wrong = await runWardInProcess([...args, 'totp=000000', 'provider=GOOGLE'], env);
    assert.equal(wrong.code, 2, wrong.stderr);
  });

  it('bypass_okta_mfa logs a user with factors in on the password alone', async () => {
    await t.ok('POST', 'auth/okta/config', { bypass_okta_mfa: true });
    const res = await login('dave@example.com', { password: 'pw-dave' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await t.ok('POST', 'auth/okta/config', { bypass_okta_mfa: false });
  });
});
