import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMergePatch } from './merge-patch.js';

describe('applyMergePatch', () => {
  // The test cases of RFC 7396, appendix A, whose target and patch are objects.
  const cases: [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>][] = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [target, patch, expected] of cases) {
    it(`${JSON.stringify(target)} + ${JSON.stringify(patch)} = ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(applyMergePatch(target, patch), expected);
    });
  }

  it('drops nulls inside an object that replaces a non-object value', () => {
    assert.deepEqual(applyMergePatch({ a: 'scalar' }, { a: { x: 1, y: null } }), { a: { x: 1 } });
  });

  it('leaves the target untouched', () => {
    const target = { a: { b: 1 } };
    applyMergePatch(target, { a: { b: 2, c: 3 } });
    assert.deepEqual(target, { a: { b: 1 } });
  });
});
