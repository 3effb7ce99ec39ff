import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { equivalentPolicies } from '../../framework/index.js';
import type { LoginGrant } from '../../logical/response.js';
import { loginDisplayName, loginTokenType, planLoginToken } from './login-token.js';

const GRANT: LoginGrant = {
  aliasName: 'alice',
  displayName: 'alice',
  policies: ['Dev', 'dev'],
  metadata: { username: 'alice' },
  ttl: 0,
  maxTtl: 0,
  explicitMaxTtl: 0,
  period: 0,
  numUses: 0,
  boundCidrs: [],
  tokenType: 'default',
  noDefaultPolicy: false,
};
const CTX = {
  path: 'auth/userpass/login/alice',
  mountPoint: 'auth/userpass/',
  mount: { defaultTtlSeconds: 3600, maxTtlSeconds: 7200 },
  nowMs: 1_000_000,
  namespaceId: 'root',
};

describe('planLoginToken', () => {
  it('makes an orphan service token with default added and the mount TTL', () => {
    const { entry } = planLoginToken(GRANT, CTX);
    assert.deepEqual(entry.policies, ['default', 'dev']);
    assert.equal(entry.orphan, true);
    assert.equal(entry.parent_accessor, '');
    assert.equal(entry.ttl, 3600);
    assert.equal(entry.renewable, true);
    assert.equal(entry.display_name, 'userpass-alice');
    assert.equal(entry.path, 'auth/userpass/login/alice');
  });

  it('caps the user TTL at the user max TTL with a warning', () => {
    const { entry, warnings } = planLoginToken({ ...GRANT, ttl: 5000, maxTtl: 4000 }, CTX);
    assert.equal(entry.ttl, 4000);
    assert.equal(warnings.length, 1);
  });

  it('never makes root, and refuses batch tokens with uses or a period', () => {
    assert.throws(
      () => planLoginToken({ ...GRANT, policies: ['root'] }, CTX),
      /auth methods cannot create root tokens/,
    );
    assert.throws(() => planLoginToken({ ...GRANT, tokenType: 'batch', numUses: 1 }, CTX), /limited use count/);
    const batch = planLoginToken({ ...GRANT, tokenType: 'batch' }, CTX).entry;
    assert.equal(batch.type, 'batch');
    assert.equal(batch.renewable, false);
  });

  it('drops default when asked', () => {
    assert.deepEqual(planLoginToken({ ...GRANT, noDefaultPolicy: true }, CTX).entry.policies, ['dev']);
  });
});

describe('login helpers', () => {
  it('resolves the token type against the mount’s tuned type', () => {
    const table: Array<[string, Array<'service' | 'batch'>]> = [
      ['default-service', ['service', 'service', 'batch']],
      ['default-batch', ['batch', 'service', 'batch']],
      ['service', ['service', 'service', 'service']],
      ['batch', ['batch', 'batch', 'batch']],
    ];
    for (const [mount, expected] of table) {
      const got = (['default', 'service', 'batch'] as const).map((asked) => loginTokenType(asked, mount));
      assert.deepEqual(got, expected, mount);
    }
    assert.equal(loginTokenType('default'), 'service');
  });

  it('names tokens after the mount path', () => {
    assert.equal(loginDisplayName('auth/people/corp/', 'dave'), 'people-corp-dave');
  });

  it('compares policies ignoring default, order and duplicates, but not case', () => {
    assert.equal(equivalentPolicies(['b', 'a', 'a'], ['default', 'a', 'b']), true);
    assert.equal(equivalentPolicies(['Admin'], ['admin', 'default']), false);
    assert.equal(equivalentPolicies(['a'], ['a', 'b']), false);
  });
});
