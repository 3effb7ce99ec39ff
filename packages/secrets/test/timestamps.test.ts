import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '@ward/base';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 13, point 7: entity, alias, group and KV timestamps in RFC 3339 with nanosecond precision
// (spec 000, Entity); from Node's clock that is microseconds, printed as nine digits.

const PRECISE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/;

describe('timestamps clients see', () => {
  let t: TestServer;
  let startMs: number;
  before(async () => {
    t = await startTestServer({ clock: systemClock });
    startMs = Date.now();
  });
  after(() => t.stop());

  function assertPrecise(value: unknown, what: string): void {
    assert.equal(typeof value, 'string', what);
    assert.match(value as string, PRECISE, what);
    const ms = Date.parse(value as string);
    assert.ok(ms >= startMs - 1 && ms <= Date.now() + 1, `${what}: ${value} is now`);
  }

  it('entity, alias and group creation_time and last_update_time have microseconds', async () => {
    const created = await t.request('POST', 'identity/entity', { body: { name: 'precise' } });
    const accessor = (await t.request('GET', 'sys/auth')).body.data['token/'].accessor;
    await t.request('POST', 'identity/entity-alias', {
      body: { name: 'precise-alias', canonical_id: created.body.data.id, mount_accessor: accessor },
    });
    const entity = (await t.request('GET', `identity/entity/id/${created.body.data.id}`)).body.data;
    for (const field of ['creation_time', 'last_update_time']) {
      assertPrecise(entity[field], `entity ${field}`);
      assertPrecise(entity.aliases[0][field], `alias ${field}`);
    }
    await t.request('POST', 'identity/group', { body: { name: 'precise-group' } });
    const group = (await t.request('GET', 'identity/group/name/precise-group')).body.data;
    assertPrecise(group.creation_time, 'group creation_time');
    assertPrecise(group.last_update_time, 'group last_update_time');
  });

  it("an entity's metadata is {} when none was given (spec 000, Entity)", async () => {
    const created = await t.request('POST', 'identity/entity', { body: { name: 'no-metadata' } });
    const entity = (await t.request('GET', `identity/entity/id/${created.body.data.id}`)).body.data;
    assert.deepEqual(entity.metadata, {});
    const byName = (await t.request('GET', 'identity/entity/name/no-metadata')).body.data;
    assert.deepEqual(byName.metadata, {});
  });

  it('KV v2 created_time, updated_time and deletion_time have microseconds', async () => {
    const written = await t.request('POST', 'secret/data/precise', { body: { data: { k: 'v' } } });
    assertPrecise(written.body.data.created_time, 'created_time');
    const meta = (await t.request('GET', 'secret/metadata/precise')).body.data;
    assertPrecise(meta.created_time, 'metadata created_time');
    assertPrecise(meta.updated_time, 'metadata updated_time');
    assert.equal((await t.request('DELETE', 'secret/data/precise')).status, 204);
    const read = await t.request('GET', 'secret/data/precise');
    assertPrecise(read.body.data.metadata.deletion_time, 'deletion_time');
  });
});
