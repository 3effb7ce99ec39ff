import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { allows } from './acl.js';
import { AclStore } from './store.js';

const make = (name = 's1', term = 1) =>
  new AclStore({ clock: new FakeClock(), random: new SeededRandom(name), currentTerm: () => term });

describe('AclStore', () => {
  it('bootstraps once and resolves the bootstrap secret to management', () => {
    const s = make();
    const t = s.bootstrap();
    assert.equal(t.Type, 'management');
    assert.equal(s.resolve(t.SecretID).isManagement, true);
    assert.throws(() => s.bootstrap(), { code: 'invalid_request' });
  });

  it('gives anonymous the anonymous policy, and refuses unknown secrets', async () => {
    const s = make();
    assert.equal(allows(s.resolve(undefined), 'node:read'), false);
    await s.upsertPolicy('anonymous', { Rules: 'node {\n policy = "read"\n}' });
    assert.equal(allows(s.resolve(undefined), 'node:read'), true);
    assert.throws(() => s.resolve('nope'), { code: 'permission_denied', message: 'ACL token not found' });
  });

  it('resolves a client token through its policies, and a deleted token no longer works', async () => {
    const s = make();
    await s.upsertPolicy('ops', { Rules: 'agent {\n policy = "write"\n}' });
    const t = s.upsertToken({ Name: 'ops', Policies: ['ops'] });
    assert.equal(allows(s.resolve(t.SecretID), 'agent:write'), true);
    assert.equal(allows(s.resolve(t.SecretID), 'node:read'), false);
    s.deleteToken(t.AccessorID);
    assert.throws(() => s.resolve(t.SecretID), { code: 'permission_denied' });
  });

  it('numbers every write with the next index and the current term, and restores a replica exactly', async () => {
    const a = make('a', 3);
    const b = make('b');
    const t = a.bootstrap();
    await a.upsertPolicy('p', { Rules: '' });
    assert.deepEqual(a.position(), { index: 2, term: 3 });
    b.restore(a.snapshot());
    assert.deepEqual(b.position(), { index: 2, term: 3 });
    assert.equal(b.resolve(t.SecretID).isManagement, true);
    a.noop(4);
    assert.deepEqual(a.position(), { index: 3, term: 4 });
  });
});
