import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, tokenReadData } from './token-fields.js';

const apply = (data: Record<string, unknown>, current = EMPTY_TOKEN_PARAMS) =>
  applyTokenFields(current, data, new Set(Object.keys(data)));

describe('token fields', () => {
  it('stores a legacy name in both slots, parsed like policy names', () => {
    const p = apply({ policies: [' B', 'a', 'a'] });
    assert.deepEqual(p.token_policies, ['a', 'b']);
    assert.deepEqual(p.legacy.policies, ['a', 'b']);
  });

  it('stores token_policies as written and clears the legacy slot', () => {
    const p = apply({ token_policies: ['B'] }, apply({ policies: ['x'] }));
    assert.deepEqual(p.token_policies, ['B']);
    assert.deepEqual(p.legacy.policies, []);
  });

  it('lets token_* win when both names are sent', () => {
    const p = apply({ token_ttl: 10, ttl: 20 });
    assert.equal(p.token_ttl, 10);
    assert.equal(p.legacy.ttl, 10);
  });

  it('keeps absent fields on update', () => {
    const p = apply({ token_num_uses: 3 }, apply({ token_ttl: 60 }));
    assert.equal(p.token_ttl, 60);
    assert.equal(p.token_num_uses, 3);
  });

  it('shows single-host CIDRs without their mask', () => {
    const p = apply({ token_bound_cidrs: ['127.0.0.1', '10.0.0.0/8', '::1'] });
    assert.deepEqual(tokenReadData(p).token_bound_cidrs, ['127.0.0.1', '10.0.0.0/8', '::1']);
  });

  it('refuses bad CIDRs and negative values', () => {
    assert.throws(() => apply({ token_bound_cidrs: ['not-an-ip'] }), { code: 'invalid_request' });
    assert.throws(() => apply({ token_period: -1 }), /'token_period' cannot be negative/);
    assert.throws(() => apply({ token_ttl: -1 }), /'token_ttl' cannot be negative/);
  });
});
