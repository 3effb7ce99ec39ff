import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('identity merge and MFA secrets over HTTP', () => {
  let t: TestServer;
  let accessor = '';
  let methodId = '';
  const post = (path: string, body: unknown) => t.request('POST', path, { body });
  const entity = async (name: string) => (await post('identity/entity', { name })).body.data.id as string;
  const alias = async (entityId: string, name: string) =>
    (await post('identity/entity-alias', { name, mount_accessor: accessor, canonical_id: entityId })).body.data
      .id as string;
  const secret = (entityId: string) =>
    post('identity/mfa/method/totp/admin-generate', { method_id: methodId, entity_id: entityId });

  before(async () => {
    t = await startTestServer();
    await post('sys/auth/userpass', { type: 'userpass' });
    accessor = (await t.request('GET', 'sys/auth')).body.data['userpass/'].accessor;
    const method = await post('identity/mfa/method/totp', { method_name: 'otp', issuer: 'Ward' });
    assert.equal(method.status, 200);
    methodId = method.body.data.method_id;
  });
  after(() => t.stop());

  it('manages TOTP methods and entity secrets', async () => {
    const read = (await t.request('GET', `identity/mfa/method/totp/${methodId}`)).body.data;
    assert.equal(read.issuer, 'Ward');
    assert.equal(read.period, 30);
    assert.equal(read.digits, 6);
    assert.equal(read.type, 'totp');
    const e = await entity('mfa-holder');
    const gen = await secret(e);
    assert.equal(gen.status, 200);
    assert.match(
      gen.body.data.url,
      new RegExp(`^otpauth://totp/Ward:${e}\\?algorithm=SHA1&digits=6&issuer=Ward&period=30&secret=[A-Z2-7]{32}$`),
    );
    assert.ok(gen.body.data.barcode.length > 100, 'a PNG QR code');
    const again = await secret(e);
    assert.equal(again.body.data, null);
    assert.deepEqual(again.body.warnings, ['Entity already has a secret for MFA method "otp"']);
    assert.equal(
      (await post('identity/mfa/method/totp/admin-destroy', { method_id: methodId, entity_id: e })).status,
      204,
    );
    assert.equal((await secret(e)).status, 200, 'a new secret after destroy');
    const bad = await post('identity/mfa/method/totp/admin-generate', { method_id: 'nope', entity_id: e });
    assert.deepEqual(bad.body.errors, ['configuration for method ID "nope" does not exist']);
  });

  it('merges aliases, merged ids and groups into the destination; old tokens follow', async () => {
    await post('auth/userpass/users/kim', { password: 'pw' });
    const auth = (await t.request('POST', 'auth/userpass/login/kim', { token: null, body: { password: 'pw' } })).body
      .auth;
    const from = auth.entity_id as string;
    const to = await entity('merge-to');
    await t.request('PUT', 'sys/policies/acl/m', {
      body: { policy: 'path "secret/data/m" { capabilities = ["read"] }' },
    });
    await post('secret/data/m', { data: { a: 1 } });
    const group = (await post('identity/group', { name: 'g-merge', member_entity_ids: [from] })).body.data.id;
    await post(`identity/entity/id/${to}`, { policies: ['m'] });
    const res = await post('identity/entity/merge', { from_entity_ids: [from], to_entity_id: to });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.equal((await t.request('GET', `identity/entity/id/${from}`)).status, 404);
    const merged = (await t.request('GET', `identity/entity/id/${to}`)).body.data;
    assert.deepEqual(merged.merged_entity_ids, [from]);
    assert.equal(merged.aliases.length, 1);
    assert.deepEqual(merged.aliases[0].merged_from_canonical_ids, [from]);
    assert.equal(merged.aliases[0].canonical_id, to);
    assert.deepEqual(merged.direct_group_ids, [group]);
    assert.deepEqual((await t.request('GET', `identity/group/id/${group}`)).body.data.member_entity_ids, [to]);
    // The old token now acts as the destination: its policies apply.
    assert.equal((await t.request('GET', 'secret/data/m', { token: auth.client_token })).status, 200);
    // Issue 13, point 8: and its lookup says so.
    const self = (await t.request('GET', 'auth/token/lookup-self', { token: auth.client_token })).body.data;
    assert.equal(self.entity_id, to);
    assert.deepEqual(self.identity_policies, ['m']);
    const byAccessor = await post('auth/token/lookup-accessor', { accessor: auth.accessor });
    assert.equal(byAccessor.body.data.entity_id, to);
    assert.deepEqual(byAccessor.body.data.identity_policies, ['m']);
    const next = (await t.request('POST', 'auth/userpass/login/kim', { token: null, body: { password: 'pw' } })).body
      .auth;
    assert.equal(next.entity_id, to);
  });

  it('checks the merge input in the established order', async () => {
    const a = await entity('chk-a');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ from_entity_ids: [a] }, 'missing entity id to merge to'],
      [{ to_entity_id: a }, 'missing entity ids to merge from'],
      [{ from_entity_ids: [a], to_entity_id: 'nope' }, 'entity id to merge to is invalid'],
      [{ from_entity_ids: [a], to_entity_id: a }, 'to_entity_id should not be present in from_entity_ids'],
      [{ from_entity_ids: ['nope'], to_entity_id: a }, 'entity id to merge from is invalid'],
    ];
    for (const [body, message] of cases) {
      const res = await post('identity/entity/merge', body);
      assert.equal(res.status, 400, message);
      assert.deepEqual(res.body.errors, [message]);
    }
  });

  it('fails on MFA secret conflicts listing every one, and with force keeps the destination’s secret', async () => {
    const second = (await post('identity/mfa/method/totp', { method_name: 'otp2', issuer: 'Ward' })).body.data
      .method_id;
    const to = await entity('mfa-to');
    const from1 = await entity('mfa-from1');
    for (const e of [to, from1]) {
      await secret(e);
      await post('identity/mfa/method/totp/admin-generate', { method_id: second, entity_id: e });
    }
    const refused = await post('identity/entity/merge', { from_entity_ids: [from1], to_entity_id: to });
    assert.equal(refused.status, 400);
    assert.deepEqual(
      refused.body.errors.sort(),
      [
        `conflicting MFA config ID "${methodId}" in entity ID "${from1}"`,
        `conflicting MFA config ID "${second}" in entity ID "${from1}"`,
      ].sort(),
    );
    assert.equal((await t.request('GET', `identity/entity/id/${from1}`)).status, 200, 'nothing merged');
    const forced = await post('identity/entity/merge', { from_entity_ids: [from1], to_entity_id: to, force: true });
    assert.equal(forced.status, 204);
    // The destination still has its own secret: generating again only warns.
    assert.equal((await secret(to)).body.data, null);
  });

  it('reports alias clashes, and settles them with conflicting_alias_ids_to_keep', async () => {
    const to = await entity('clash-to');
    const from = await entity('clash-from');
    const toAlias = await alias(to, 'clash-x');
    const fromAlias = await alias(from, 'clash-y');
    const clash = await post('identity/entity/merge', { from_entity_ids: [from], to_entity_id: to });
    assert.equal(clash.status, 400);
    assert.match(
      clash.body.errors[0],
      /toEntity and at least one fromEntity have aliases with the same mount accessor/,
    );
    assert.match(clash.body.errors[0], new RegExp(`conflicting fromEntity alias ID: ${fromAlias}`));
    const neither = await post('identity/entity/merge', {
      from_entity_ids: [from],
      to_entity_id: to,
      conflicting_alias_ids_to_keep: ['other'],
    });
    assert.deepEqual(neither.body.errors, [
      `conflicting mount accessors in following alias IDs and neither were present in conflicting_alias_ids_to_keep: ${fromAlias}, ${toAlias}`,
    ]);
    const kept = await post('identity/entity/merge', {
      from_entity_ids: [from],
      to_entity_id: to,
      conflicting_alias_ids_to_keep: [fromAlias],
    });
    assert.equal(kept.status, 204);
    const aliases = (await t.request('GET', `identity/entity/id/${to}`)).body.data.aliases;
    assert.deepEqual(
      aliases.map((a: { id: string }) => a.id),
      [fromAlias],
    );
    assert.equal((await t.request('GET', `identity/entity-alias/id/${toAlias}`)).status, 404);
  });
});
