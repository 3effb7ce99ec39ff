import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 18: external groups, group aliases and identity/lookup/group over HTTP.

describe('external groups, group aliases and lookup/group', () => {
  let t: TestServer;
  let accessor = '';
  const post = (path: string, body: unknown) => t.request('POST', path, { body });

  before(async () => {
    t = await startTestServer();
    await post('sys/auth/approle', { type: 'approle' });
    accessor = (await t.request('GET', 'sys/auth')).body.data['approle/'].accessor;
  });
  after(() => t.stop());

  it('creates an external group; its type never changes and its members are not written by hand', async () => {
    const created = await post('identity/group', { name: 'ops', type: 'external', policies: ['ops'] });
    assert.equal(created.status, 200);
    const id = created.body.data.id;
    const read = (await t.request('GET', `identity/group/id/${id}`)).body.data;
    assert.equal(read.type, 'external');
    assert.equal(read.member_entity_ids, null, 'never set');
    assert.deepEqual(read.alias, {});
    const change = await post(`identity/group/id/${id}`, { type: 'internal' });
    assert.deepEqual(change.body.errors, ['group type cannot be changed']);
    const byName = await post('identity/group/name/ops', { type: 'internal' });
    assert.deepEqual(byName.body.errors, ['group type cannot be changed']);
    const entity = (await post('identity/entity', { name: 'e1' })).body.data.id;
    const members = await post(`identity/group/id/${id}`, { member_entity_ids: [entity] });
    assert.deepEqual(members.body.errors, ["member entities can't be set manually for external groups"]);
    assert.equal((await post('identity/group', { name: 'x', type: 'cosmic' })).status, 400);
  });

  it('attaches one alias per external group, unique per mount, never to an internal group', async () => {
    const group = (await post('identity/group', { name: 'devs', type: 'external' })).body.data.id;
    const internal = (await post('identity/group', { name: 'plain' })).body.data.id;
    const alias = await post('identity/group-alias', {
      name: 'cn=devs',
      mount_accessor: accessor,
      canonical_id: group,
    });
    assert.equal(alias.status, 200, JSON.stringify(alias.body));
    assert.equal(alias.body.data.canonical_id, group);
    const aliasId = alias.body.data.id;
    const read = (await t.request('GET', `identity/group-alias/id/${aliasId}`)).body.data;
    assert.equal(read.name, 'cn=devs');
    assert.equal(read.mount_type, 'approle');
    assert.equal(read.mount_path, 'auth/approle/');
    assert.equal((await t.request('GET', `identity/group/id/${group}`)).body.data.alias.id, aliasId);

    const dup = await post('identity/group-alias', { name: 'CN=devs', mount_accessor: accessor });
    assert.deepEqual(dup.body.errors, ['combination of mount and group alias name is already in use']);
    const onInternal = await post('identity/group-alias', {
      name: 'g',
      mount_accessor: accessor,
      canonical_id: internal,
    });
    assert.deepEqual(onInternal.body.errors, ["alias can't be set on an internal group"]);
    const second = await post('identity/group-alias', { name: 'other', mount_accessor: accessor, canonical_id: group });
    assert.deepEqual(second.body.errors, ['group already has an alias']);
    const badMount = await post('identity/group-alias', { name: 'y', mount_accessor: 'auth_nope_1234' });
    assert.equal(badMount.status, 400);
    const alone = await post('identity/group-alias', { name: 'cn=alone', mount_accessor: accessor });
    const own = (await t.request('GET', `identity/group/id/${alone.body.data.canonical_id}`)).body.data;
    assert.equal(own.type, 'external', 'an alias naming no group gets an external group of its own');
    assert.equal(own.alias.name, 'cn=alone');
    await t.request('DELETE', `identity/group/id/${own.id}`);

    const renamed = await post(`identity/group-alias/id/${aliasId}`, { name: 'cn=developers' });
    assert.equal(renamed.body.data.id, aliasId);
    const list = await t.request('LIST', 'identity/group-alias/id');
    assert.deepEqual(list.body.data.keys, [aliasId]);
    assert.equal(list.body.data.key_info[aliasId].name, 'cn=developers');

    await t.request('DELETE', `identity/group/id/${group}`);
    assert.equal((await t.request('GET', `identity/group-alias/id/${aliasId}`)).status, 404, 'gone with its group');
  });

  it('looks a group up by id, name, alias id, and alias name with mount accessor', async () => {
    const group = (await post('identity/group', { name: 'finder', type: 'external' })).body.data.id;
    const aliasId = (
      await post('identity/group-alias', { name: 'ldap-finder', mount_accessor: accessor, canonical_id: group })
    ).body.data.id;
    const lookup = (body: unknown) => post('identity/lookup/group', body);
    assert.equal((await lookup({ id: group })).body.data.name, 'finder');
    assert.equal((await lookup({ name: 'FINDER' })).body.data.id, group);
    assert.equal((await lookup({ alias_id: aliasId })).body.data.alias.name, 'ldap-finder');
    const byAlias = await lookup({ alias_name: 'ldap-finder', alias_mount_accessor: accessor });
    assert.equal(byAlias.body.data.id, group);
    assert.equal((await lookup({ id: 'missing' })).status, 204);
    assert.equal((await lookup({})).status, 400);
    assert.equal((await lookup({ id: group, name: 'finder' })).status, 400);
    assert.equal((await lookup({ alias_name: 'ldap-finder' })).status, 400);
  });
});
