import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Base32Error, decodeBase32, encodeBase32NoPadding, padKey } from './base32.js';

/** The offset Go's `base32.StdEncoding.DecodeString` reports, or 'ok'. */
function outcome(text: string): number | 'ok' {
  try {
    decodeBase32(text);
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof Base32Error);
    return err.offset;
  }
}

describe('base32 as Go decodes it', () => {
  it('round-trips the RFC 4648 test vectors', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY======'],
      ['fo', 'MZXQ===='],
      ['foo', 'MZXW6==='],
      ['foob', 'MZXW6YQ='],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI======'],
    ];
    for (const [plain, encoded] of vectors) {
      assert.equal(Buffer.from(decodeBase32(encoded)).toString(), plain);
      assert.equal(padKey(encodeBase32NoPadding(Buffer.from(plain))), encoded);
    }
  });

  it('reports the offset of the first illegal byte as Go does', () => {
    // Cases worked through Go's encoding/base32 decode loop.
    assert.equal(outcome('JBSWY3DP'), 'ok');
    assert.equal(outcome('JBSW Y3DP'.padEnd(16, '=')), 4, 'a space');
    assert.equal(outcome('JBSWY3D1'), 7, '1 is not in the alphabet');
    assert.equal(outcome('jbswy3dp'), 0, 'lower case is upper-cased by the caller, not here');
    assert.equal(outcome('A======='), 1, 'one data character cannot make a byte');
    assert.equal(outcome('AAA====='), 3, 'nor can three');
    assert.equal(outcome('AAAAAA=='), 6, 'nor six');
    assert.equal(outcome('AA=A===='), 2, 'data after padding: Go points one before it');
    assert.equal(outcome('AAAAAAAAA'), 8, 'missing padding: Go counts back over the partial group');
    assert.equal(outcome('AA======AAAAAAAA'), 2, 'padding followed by a whole group is not padding');
    assert.equal(outcome('AA====='), 7, 'padding too short');
  });

  it('drops CR and LF before decoding, as Go does', () => {
    assert.equal(Buffer.from(decodeBase32('MZXW\r\n6YTB')).toString(), 'fooba');
  });

  it('pads keys to a multiple of 8 bytes', () => {
    assert.equal(padKey('JBSWY3DPEHPK3PXP'), 'JBSWY3DPEHPK3PXP');
    assert.equal(padKey('MZXW6YQ'), 'MZXW6YQ=');
    assert.equal(padKey('A'), 'A=======');
  });
});
