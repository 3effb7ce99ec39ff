import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

describe('identity aliases and groups over HTTP', () => {
  let t: TestServer;
  let accessor = '';
  let other = '';
  const post = (path: string, body: unknown) => t.request('POST', path, { body });
  const entity = async (name: string) => (await post('identity/entity', { name })).body.data.id as string;

  before(async () => {
    t = await startTestServer();
    await post('sys/auth/userpass', { type: 'userpass' });
    await post('sys/auth/other', { type: 'userpass' });
    const auths = (await t.request('GET', 'sys/auth')).body.data;
    accessor = auths['userpass/'].accessor;
    other = auths['other/'].accessor;
  });
  after(() => t.stop());

  it('creates an alias for an entity, reads and lists it, and allows one alias per mount per entity', async () => {
    const e = await entity('ali');
    const res = await post('identity/entity-alias', { name: 'ali', mount_accessor: accessor, canonical_id: e });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.canonical_id, e);
    const id = res.body.data.id;
    const read = (await t.request('GET', `identity/entity-alias/id/${id}`)).body.data;
    assert.equal(read.name, 'ali');
    assert.equal(read.mount_type, 'userpass');
    assert.equal(read.mount_path, 'auth/userpass/');
    assert.equal(read.canonical_id, e);
    const second = await post('identity/entity-alias', { name: 'ali2', mount_accessor: accessor, canonical_id: e });
    assert.equal(second.status, 400);
    assert.deepEqual(second.body.errors, ['Alias already exists for requested entity and mount accessor']);
    const list = await t.request('LIST', 'identity/entity-alias/id');
    assert.ok(list.body.data.keys.includes(id));
    assert.equal(list.body.data.key_info[id].canonical_id, e);
    const entityRead = (await t.request('GET', `identity/entity/id/${e}`)).body.data;
    assert.equal(entityRead.aliases[0].id, id);
  });

  it('creates a new entity for an alias without canonical_id, and login then uses it', async () => {
    const res = await post('identity/entity-alias', { name: 'preset', mount_accessor: accessor });
    assert.equal(res.status, 200);
    await post('auth/userpass/users/preset', { password: 'pw' });
    const login = await t.request('POST', 'auth/userpass/login/preset', { token: null, body: { password: 'pw' } });
    assert.equal(login.body.auth.entity_id, res.body.data.canonical_id);
  });

  it('refuses bad input with the established messages', async () => {
    const none = await post('identity/entity-alias', { name: 'x' });
    assert.deepEqual(none.body.errors, ["'id' or 'mount_accessor' and 'name' must be provided"]);
    const badMount = await post('identity/entity-alias', { name: 'x', mount_accessor: 'auth_nope_1' });
    assert.deepEqual(badMount.body.errors, ['invalid mount accessor "auth_nope_1"']);
    const badEntity = await post('identity/entity-alias', {
      name: 'x',
      mount_accessor: accessor,
      canonical_id: 'nope',
    });
    assert.deepEqual(badEntity.body.errors, ['invalid canonical ID']);
    const badId = await post('identity/entity-alias/id/nope', { name: 'x' });
    assert.deepEqual(badId.body.errors, ['invalid alias ID provided']);
  });

  it('moves an alias to another entity, renames it, and deletes it', async () => {
    const a = await entity('move-a');
    const b = await entity('move-b');
    const alias = (await post('identity/entity-alias', { name: 'mover', mount_accessor: other, canonical_id: a })).body
      .data.id;
    const moved = await post(`identity/entity-alias/id/${alias}`, { canonical_id: b, name: 'mover2' });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.data.canonical_id, b);
    assert.deepEqual((await t.request('GET', `identity/entity/id/${a}`)).body.data.aliases, []);
    assert.equal((await t.request('GET', `identity/entity/id/${b}`)).body.data.aliases[0].name, 'mover2');
    assert.equal((await t.request('DELETE', `identity/entity-alias/id/${alias}`)).status, 204);
    assert.equal((await t.request('GET', `identity/entity-alias/id/${alias}`)).status, 404);
  });

  it('removes an entity’s aliases with it; the next login makes a new entity', async () => {
    await post('auth/userpass/users/ivy', { password: 'pw' });
    const login = () => t.request('POST', 'auth/userpass/login/ivy', { token: null, body: { password: 'pw' } });
    const first = (await login()).body.auth;
    const aliasId = (await t.request('GET', `identity/entity/id/${first.entity_id}`)).body.data.aliases[0].id;
    await t.request('DELETE', `identity/entity/id/${first.entity_id}`);
    assert.equal((await t.request('GET', `identity/entity-alias/id/${aliasId}`)).status, 404);
    const refused = await t.request('GET', 'auth/token/lookup-self', { token: first.client_token });
    assert.equal(refused.status, 403, 'a token of a deleted entity is refused');
    const second = (await login()).body.auth;
    assert.notEqual(second.entity_id, first.entity_id);
  });

  it('computes direct, inherited and all group ids, and group policies reach the tokens', async () => {
    await t.request('PUT', 'sys/policies/acl/grp', {
      body: { policy: 'path "secret/data/grp" { capabilities = ["read"] }' },
    });
    await post('secret/data/grp', { data: { a: 1 } });
    await post('auth/userpass/users/jack', { password: 'pw' });
    const auth = (await t.request('POST', 'auth/userpass/login/jack', { token: null, body: { password: 'pw' } })).body
      .auth;
    assert.equal((await t.request('GET', 'secret/data/grp', { token: auth.client_token })).status, 403);
    const child = await post('identity/group', { name: 'child', member_entity_ids: [auth.entity_id] });
    assert.equal(child.status, 200);
    assert.match(child.body.data.id, /^[0-9a-f-]{36}$/);
    const parent = await post('identity/group', {
      name: 'parent',
      policies: ['grp'],
      member_group_ids: [child.body.data.id],
    });
    const read = (await t.request('GET', `identity/entity/id/${auth.entity_id}`)).body.data;
    assert.deepEqual(read.direct_group_ids, [child.body.data.id]);
    assert.deepEqual(read.inherited_group_ids, [parent.body.data.id]);
    assert.deepEqual(read.group_ids, [child.body.data.id, parent.body.data.id]);
    assert.equal((await t.request('GET', 'secret/data/grp', { token: auth.client_token })).status, 200);
    const group = (await t.request('GET', `identity/group/name/parent`)).body.data;
    assert.deepEqual(group.member_group_ids, [child.body.data.id]);
    assert.equal(group.type, 'internal');
    const cycle = await post(`identity/group/id/${child.body.data.id}`, { member_group_ids: [parent.body.data.id] });
    assert.equal(cycle.status, 400);
    const update = await post(`identity/group/id/${parent.body.data.id}`, { policies: [] });
    assert.equal(update.status, 204);
    assert.equal((await t.request('GET', 'secret/data/grp', { token: auth.client_token })).status, 403);
    const badMember = await post('identity/group', { member_entity_ids: ['nope'] });
    assert.equal(badMember.status, 400);
    assert.ok((await t.request('LIST', 'identity/group/name')).body.data.keys.includes('child'));
    // As established, the lists carry each group's name and counts under key_info (the UI names groups by it).
    const byId = (await t.request('LIST', 'identity/group/id')).body.data.key_info;
    assert.deepEqual(byId[child.body.data.id], { name: 'child', num_member_entities: 1, num_parent_groups: 1 });
    assert.deepEqual(byId[parent.body.data.id], { name: 'parent', num_member_entities: 0, num_parent_groups: 0 });
    const byName = (await t.request('LIST', 'identity/group/name')).body.data.key_info;
    assert.deepEqual(byName.child, { name: 'child', num_member_entities: 1, num_parent_groups: 1 });
    assert.equal((await t.request('DELETE', `identity/group/name/child`)).status, 204);
    assert.deepEqual((await t.request('GET', `identity/entity/id/${auth.entity_id}`)).body.data.group_ids, []);
  });
});
