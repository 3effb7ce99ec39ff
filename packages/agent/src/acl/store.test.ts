import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { allows } from './acl.js';
import { AclStore } from './store.js';

const make = (name = 's1') => new AclStore(name, new FakeClock(), new SeededRandom(name));

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

  it('replicates by adopting only newer snapshots', async () => {
    const a = make('a');
    const b = make('b');
    const t = a.bootstrap();
    assert.equal(b.merge(a.snapshot()), true);
    assert.equal(b.resolve(t.SecretID).isManagement, true);
    assert.equal(a.merge(b.snapshot()), false);
  });
});
