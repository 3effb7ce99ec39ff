import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

describe('identity entities over HTTP', () => {
  let t: TestServer;
  const post = (path: string, body: unknown) => t.request('POST', path, { body });

  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('creates an entity with the default name and answers id and aliases: null', async () => {
    const res = await post('identity/entity', { metadata: { team: 'a' }, policies: 'b,a' });
    assert.equal(res.status, 200);
    assert.match(res.body.data.id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.data.aliases, null);
    assert.match(res.body.data.name, /^entity-[0-9a-f-]{36}$/);
    const read = await t.request('GET', `identity/entity/id/${res.body.data.id}`);
    assert.equal(read.status, 200);
    const data = read.body.data;
    assert.deepEqual(data.policies, ['a', 'b']);
    assert.deepEqual(data.metadata, { team: 'a' });
    assert.equal(data.disabled, false);
    assert.deepEqual(data.aliases, []);
    assert.equal(data.merged_entity_ids, null);
    assert.deepEqual(data.direct_group_ids, []);
    assert.deepEqual(data.inherited_group_ids, []);
    assert.deepEqual(data.group_ids, []);
    assert.match(data.bucket_key_hash, /^[0-9a-f]{32}$/);
    assert.equal(data.namespace_id, 'root');
    assert.match(data.creation_time, RFC3339);
    assert.match(data.last_update_time, RFC3339);
  });

  it('updates by id, by name (case-insensitive) and through identity/entity with a known name', async () => {
    const created = (await post('identity/entity', { name: 'Grace' })).body.data;
    const byId = await post(`identity/entity/id/${created.id}`, { policies: ['p1'] });
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body.data, { id: created.id, name: 'Grace', aliases: null });
    const byName = await post('identity/entity/name/grace', { metadata: { k: 'v' } });
    assert.equal(byName.body.data.id, created.id, 'names match case-insensitively');
    const again = await post('identity/entity', { name: 'GRACE', disabled: true });
    assert.equal(again.body.data.id, created.id);
    const read = (await t.request('GET', 'identity/entity/name/Grace')).body.data;
    assert.deepEqual(read.policies, ['p1']);
    assert.deepEqual(read.metadata, { k: 'v' });
    assert.equal(read.disabled, true);
    assert.equal(read.name, 'GRACE');
  });

  it('creates by name and refuses the errors of the decision table', async () => {
    const res = await post('identity/entity/name/henry', { policies: 'x' });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.name, 'henry');
    const unknownId = await post('identity/entity', { id: '00000000-0000-4000-8000-00000000dead' });
    assert.equal(unknownId.status, 400);
    assert.deepEqual(unknownId.body.errors, ['entity not found from id']);
    const other = (await post('identity/entity', {})).body.data;
    const taken = await post(`identity/entity/id/${other.id}`, { name: 'henry' });
    assert.equal(taken.status, 400);
    assert.deepEqual(taken.body.errors, ['entity name is already in use']);
    const root = await post('identity/entity', { policies: ['root'] });
    assert.equal(root.status, 400);
    assert.deepEqual(root.body.errors, ['policies cannot contain root']);
    const badMeta = await post('identity/entity', { metadata: { 'vault-x': 'y' } });
    assert.equal(badMeta.status, 400);
  });

  it('takes any characters in a name path, slashes too', async () => {
    const res = await post('identity/entity/name/team/alice@example.com', {});
    assert.equal(res.status, 200);
    assert.equal(res.body.data.name, 'team/alice@example.com');
    const read = await t.request('GET', 'identity/entity/name/team/alice@example.com');
    assert.equal(read.body.data.id, res.body.data.id);
  });

  it('lists ids with key_info and names without it; reads of a missing entity are 404', async () => {
    const ids = await t.request('LIST', 'identity/entity/id');
    assert.equal(ids.status, 200);
    assert.ok(ids.body.data.keys.length >= 3);
    for (const id of ids.body.data.keys) assert.equal(typeof ids.body.data.key_info[id].name, 'string');
    const names = await t.request('GET', 'identity/entity/name?list=true');
    assert.ok(names.body.data.keys.includes('henry'));
    assert.equal(names.body.data.key_info, undefined);
    const missing = await t.request('GET', 'identity/entity/id/nope');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { errors: [] });
  });

  it('deletes by id, by name and in batches (204, absent too)', async () => {
    const a = (await post('identity/entity', { name: 'del-a' })).body.data.id;
    const b = (await post('identity/entity', { name: 'del-b' })).body.data.id;
    const c = (await post('identity/entity', { name: 'del-c' })).body.data.id;
    assert.equal((await t.request('DELETE', `identity/entity/id/${a}`)).status, 204);
    assert.equal((await t.request('DELETE', `identity/entity/id/${a}`)).status, 204);
    assert.equal((await t.request('DELETE', 'identity/entity/name/DEL-B')).status, 204);
    assert.equal((await t.request('GET', `identity/entity/id/${b}`)).status, 404);
    const empty = await post('identity/entity/batch-delete', { entity_ids: [] });
    assert.deepEqual(empty.body.errors, ['missing entity ids to delete']);
    assert.equal((await post('identity/entity/batch-delete', { entity_ids: [c, 'unknown'] })).status, 204);
    assert.equal((await t.request('GET', `identity/entity/id/${c}`)).status, 404);
  });

  it('looks entities up by id, name or alias; no match is 204', async () => {
    const e = (await post('identity/entity', { name: 'lookup-me' })).body.data.id;
    const byName = await post('identity/lookup/entity', { name: 'lookup-me' });
    assert.equal(byName.body.data.id, e);
    assert.equal((await post('identity/lookup/entity', { name: 'nobody' })).status, 204);
    const none = await post('identity/lookup/entity', {});
    assert.deepEqual(none.body.errors, ['query parameter not supplied']);
  });

  it('keeps each namespace’s entities apart', async () => {
    assert.equal((await post('sys/namespaces/team1', {})).status, 200);
    const inNs = await t.request('POST', 'identity/entity', {
      body: { name: 'ns-only' },
      headers: { 'X-Vault-Namespace': 'team1' },
    });
    assert.equal(inNs.status, 200);
    assert.equal((await t.request('GET', 'identity/entity/name/ns-only')).status, 404, 'not in root');
    const read = await t.request('GET', 'team1/identity/entity/name/ns-only');
    assert.equal(read.status, 200);
    assert.notEqual(read.body.data.namespace_id, 'root');
  });
});
