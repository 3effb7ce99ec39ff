import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 32: a PKI role's allowed_domains_template fills identity templates in allowed_domains
// from the caller's entity (its alias name at an auth mount, its metadata), through the server.

describe('pki allowed_domains_template', () => {
  let t: TestServer;

  before(async () => {
    t = await startTestServer();
    await t.ok('POST', 'sys/auth/userpass', { type: 'userpass' });
    await t.ok('POST', 'sys/mounts/pki', { type: 'pki' });
    await t.ok('POST', 'pki/root/generate/internal', { common_name: 'Root', key_type: 'ec' });
    await t.ok('PUT', 'sys/policies/acl/issuer', { policy: 'path "pki/issue/*" { capabilities = ["update"] }' });
    for (const user of ['alice', 'bob'])
      await t.ok('POST', `auth/userpass/users/${user}`, { password: 'pw', token_policies: 'issuer' });
  });
  after(async () => t.stop());

  it('lets each user issue for their own name only, and fills entity metadata too', async () => {
    const accessor = (await t.ok('GET', 'sys/auth')).data['userpass/'].accessor;
    await t.ok('POST', 'pki/roles/mine', {
      allowed_domains: `{{identity.entity.aliases.${accessor}.name}}.users.example,{{identity.entity.metadata.team}}.teams.example,shared.example`,
      allowed_domains_template: true,
      allow_bare_domains: true,
      allow_subdomains: true,
      ttl: '1h',
    });
    const login = async (user: string) =>
      (await t.ok('POST', `auth/userpass/login/${user}`, { password: 'pw' })).auth.client_token as string;
    const alice = await login('alice');
    const issued = await t.ok('POST', 'pki/issue/mine', { common_name: 'alice.users.example' }, alice);
    assert.match(issued.data.certificate, /BEGIN CERTIFICATE/);
    await t.ok('POST', 'pki/issue/mine', { common_name: 'www.alice.users.example' }, alice);
    await t.ok('POST', 'pki/issue/mine', { common_name: 'shared.example' }, alice);
    const other = await t.request('POST', 'pki/issue/mine', {
      body: { common_name: 'bob.users.example' },
      token: alice,
    });
    assert.equal(other.status, 400, JSON.stringify(other.body));
    // The entity has no `team` metadata yet: that template allows nothing.
    const noTeam = await t.request('POST', 'pki/issue/mine', {
      body: { common_name: 'red.teams.example' },
      token: alice,
    });
    assert.equal(noTeam.status, 400);
    const self = await t.ok('GET', 'auth/token/lookup-self', undefined, alice);
    await t.ok('POST', `identity/entity/id/${self.data.entity_id}`, { metadata: { team: 'red' } });
    await t.ok('POST', 'pki/issue/mine', { common_name: 'red.teams.example' }, alice);
    const bob = await login('bob');
    await t.ok('POST', 'pki/issue/mine', { common_name: 'bob.users.example' }, bob);
    // The root token has no entity: only the plain domains remain.
    const root = await t.request('POST', 'pki/issue/mine', { body: { common_name: 'alice.users.example' } });
    assert.equal(root.status, 400);
    await t.ok('POST', 'pki/issue/mine', { common_name: 'shared.example' });
    // Without allowed_domains_template the braces are a literal domain, which matches nothing here.
    await t.ok('POST', 'pki/roles/mine', { allowed_domains_template: false });
    const literal = await t.request('POST', 'pki/issue/mine', {
      body: { common_name: 'alice.users.example' },
      token: alice,
    });
    assert.equal(literal.status, 400);
  });
});
