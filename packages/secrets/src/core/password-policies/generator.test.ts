import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Random, SeededRandom } from '@ward/base';
import { generatePassword, randomChars } from './generator.js';
import { parsePasswordPolicy } from './policy-text.js';

/** Hands out the given bytes in order, then fails (so a test sees exactly which bytes were used). */
function scriptedRandom(bytes: number[]): Random {
  let next = 0;
  return {
    bytes(n) {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const b = bytes[next++];
        if (b === undefined) throw new Error('script exhausted');
        out[i] = b;
      }
      return out;
    },
  };
}

describe('password generation', () => {
  it('discards bytes at or above the largest multiple of the alphabet size (no modulo bias)', () => {
    // Alphabet of 3: 255 = 3 * 85 is the limit, so 255 is discarded; 254 % 3 = 2, 0 % 3 = 0.
    const random = scriptedRandom([255, 254, 0, 255, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert.equal(randomChars(random, ['a', 'b', 'c'], 3), 'caa');
  });

  it('draws every character of a 3-character alphabet about equally often', () => {
    const counts = new Map<string, number>();
    for (const c of randomChars(new SeededRandom(7), ['a', 'b', 'c'], 30_000)) counts.set(c, (counts.get(c) ?? 0) + 1);
    for (const c of ['a', 'b', 'c']) {
      const n = counts.get(c) ?? 0;
      assert.ok(n > 9_500 && n < 10_500, `${c}: ${n}`);
    }
  });

  it('meets every rule minimum', async () => {
    const policy = await parsePasswordPolicy(
      'length = 8\nrule "charset" {\n  charset = "abcdefghijklmnopqrstuvwxyz"\n  min-chars = 6\n}\n' +
        'rule "charset" {\n  charset = "0123456789"\n  min-chars = 2\n}\n',
    );
    const random = new SeededRandom(3);
    for (let i = 0; i < 20; i++) {
      const password = generatePassword(policy, random);
      assert.equal(password.length, 8);
      assert.equal(password.replace(/[^0-9]/g, '').length, 2);
    }
  });
});

describe('password policy text', () => {
  it('reads HCL and JSON alike, and de-duplicates the union of charsets', async () => {
    const hcl = await parsePasswordPolicy(
      'length = 12\nrule "charset" { charset = "aab" }\nrule "charset" { charset = "bc" }',
    );
    const json = await parsePasswordPolicy('{"length":12,"rule":{"charset":[{"charset":"aab"},{"charset":"bc"}]}}');
    assert.deepEqual(hcl.alphabet, ['a', 'b', 'c']);
    assert.deepEqual(json, hcl);
  });

  it('refuses rules that need more characters than the length, unknown rule types and empty charsets', async () => {
    await assert.rejects(
      parsePasswordPolicy('length = 4\nrule "charset" {\n charset = "ab"\n min-chars = 5\n}'),
      /specified rules require at least 5 characters but 4 is specified/,
    );
    await assert.rejects(
      parsePasswordPolicy('length = 4\nrule "other" { charset = "ab" }'),
      /unrecognized rule type other/,
    );
    await assert.rejects(parsePasswordPolicy('length = 4'), /no charset specified/);
    await assert.rejects(parsePasswordPolicy('length = 4\nrule "charset" { charset = "a\\tb" }'), /non-printable/);
  });
});
