import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 33: named keys rotate on their rotation_period through the core's scheduler (on the
// injected clock), replaced keys stay published for verification_ttl; role templates add claims.

describe('identity tokens: scheduled key rotation and role templates', () => {
  let t: TestServer;
  const clock = new FakeClock('2026-01-01T00:00:00Z');
  /** Moves the clock a minute at a time, letting the scheduler's runs finish at each step. */
  const advanceMinutes = async (minutes: number) => {
    for (let i = 0; i < minutes; i++) {
      clock.advance(60_000);
      await t.server.core.scheduler.settled();
    }
  };
  const kids = async () => {
    const res = await fetch(`${t.url}/v1/identity/oidc/.well-known/keys`);
    return ((await res.json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid).sort();
  };
  let userToken = '';
  let entityId = '';
  let accessor = '';

  before(async () => {
    t = await startTestServer({ clock });
    await t.ok('POST', 'sys/auth/userpass', { type: 'userpass' });
    accessor = (await t.ok('GET', 'sys/auth')).data['userpass/'].accessor;
    await t.ok('POST', 'auth/userpass/users/alice', { password: 'pw', token_policies: 'tokens' });
    await t.ok('PUT', 'sys/policies/acl/tokens', {
      policy: 'path "identity/oidc/token/*" { capabilities = ["read"] }',
    });
    const login = await t.request('POST', 'auth/userpass/login/alice', { token: null, body: { password: 'pw' } });
    userToken = login.body.auth.client_token;
    entityId = login.body.auth.entity_id;
    await t.ok('POST', `identity/entity/id/${entityId}`, { name: 'alice', metadata: { team: 'infra' } });
    await t.ok('POST', 'identity/group', { name: 'ops', member_entity_ids: [entityId], metadata: { tier: 'gold' } });
  });
  after(() => t.stop());

  it('adds the role template’s claims, and refuses templates that cannot work (400)', async () => {
    await t.ok('POST', 'identity/oidc/key/k', {
      allowed_client_ids: '*',
      rotation_period: '1h',
      verification_ttl: '2h',
    });
    const template = JSON.stringify({
      username: '{{identity.entity.name}}',
      meta: '{{identity.entity.metadata}}',
      team: '{{identity.entity.metadata.team}}',
      groups: '{{identity.entity.groups.names}}',
      login: '{{identity.entity.aliases.ACCESSOR.name}}',
    })
      .replace(/"(\{\{[^}]+\}\})"/g, '$1')
      .replace('ACCESSOR', accessor);
    for (const bad of [
      '{"x": {{identity.entity.unknown}}}',
      '{"aud": "mine"}',
      '{"x": {{identity.entity.name}}',
      '{"x": {{identity.entity.name}',
    ]) {
      const res = await t.request('POST', 'identity/oidc/role/bad', { body: { key: 'k', template: bad } });
      assert.equal(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
    }
    await t.ok('POST', 'identity/oidc/role/r', { key: 'k', template: Buffer.from(template).toString('base64') });
    assert.equal((await t.ok('GET', 'identity/oidc/role/r')).data.template, template, 'base64 is decoded once stored');
    const issued = (await t.ok('GET', 'identity/oidc/token/r', undefined, userToken)).data.token;
    const claims = decodeJwt(issued);
    assert.equal(claims.iss, `${t.url}/v1/identity/oidc`, 'no issuer configured: the server’s address');
    assert.equal(claims.namespace, 'root');
    assert.equal(claims.username, 'alice');
    assert.deepEqual(claims.meta, { team: 'infra' });
    assert.equal(claims.team, 'infra');
    assert.deepEqual(claims.groups, ['ops']);
    assert.equal(claims.login, 'alice');
  });

  it('rotates a key on its rotation_period and publishes a replaced key for verification_ttl', async () => {
    const first = (await t.ok('GET', 'identity/oidc/token/r', undefined, userToken)).data.token;
    const kidA = decodeProtectedHeader(first).kid ?? '';
    const published = await kids();
    assert.equal(published.length, 2, 'the signing key and the next one, published ahead');
    assert.ok(published.includes(kidA));

    await advanceMinutes(59);
    assert.deepEqual(await kids(), published, 'not before the period is over');
    await advanceMinutes(2);
    const afterOne = await kids();
    assert.equal(afterOne.length, 3);
    assert.ok(afterOne.includes(kidA), 'the replaced key still verifies');
    const second = (await t.ok('GET', 'identity/oidc/token/r', undefined, userToken)).data.token;
    const kidB = decodeProtectedHeader(second).kid ?? '';
    assert.notEqual(kidB, kidA, 'tokens are signed by the new key');
    assert.ok(published.includes(kidB), 'the new key was published before it signed');
    assert.equal((await t.ok('POST', 'identity/oidc/introspect', { token: first })).active, true);

    // Two more periods: the key rotated twice more, and the first key's 2h of verification are over.
    await advanceMinutes(121);
    const later = await kids();
    assert.ok(!later.includes(kidA), 'the first key is no longer published');
    assert.ok(later.includes(kidB));
    assert.equal(later.length, 4, 'three replaced keys still verifying (one gone), the current one and the next');
    const introspected = await t.ok('POST', 'identity/oidc/introspect', { token: first });
    assert.equal(introspected.active, false);
  });
});
