import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('userpass and identity inside a namespace', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.request('POST', 'sys/namespaces/team1')).status, 200);
    assert.equal((await t.request('POST', 'team1/sys/auth/userpass', { body: { type: 'userpass' } })).status, 204);
    await t.request('POST', 'team1/auth/userpass/users/nina', { body: { password: 'pw', token_ttl: '1h' } });
  });
  after(() => t.stop());

  it('issues a namespace token whose entity lives in that namespace', async () => {
    const res = await t.request('POST', 'auth/userpass/login/nina', {
      token: null,
      body: { password: 'pw' },
      headers: { 'X-Vault-Namespace': 'team1' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { client_token: token, entity_id: entityId } = res.body.auth;
    const nsId = (await t.request('GET', 'sys/namespaces/team1')).body.data.id;
    assert.ok(token.endsWith(`.${nsId}`));
    const entity = await t.request('GET', `team1/identity/entity/id/${entityId}`);
    assert.equal(entity.status, 200);
    assert.equal(entity.body.data.namespace_id, nsId);
    assert.equal(entity.body.data.aliases[0].mount_path, 'auth/userpass/');
    assert.equal((await t.request('GET', `identity/entity/id/${entityId}`)).status, 404, 'not in root');

    const self = await t.request('GET', 'team1/auth/token/lookup-self', { token });
    assert.equal(self.status, 200);
    assert.equal(self.body.data.path, 'auth/userpass/login/nina');
    assert.equal(self.body.data.display_name, 'userpass-nina');
    const renewed = await t.request('POST', 'team1/auth/token/renew-self', { token });
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal(renewed.body.auth.lease_duration, 3600);

    await t.request('POST', `team1/identity/entity/id/${entityId}`, { body: { disabled: true } });
    assert.equal((await t.request('GET', 'team1/auth/token/lookup-self', { token })).status, 403);
  });
});
