import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as OTPAuth from 'otpauth';
import { decodeKey, encodeBase32NoPadding } from '../../framework/base32.js';
import { type Algorithm, hotp, isValidCode, type OtpParams, totp } from './otp.js';

/** RFC 6238 appendix B: the seeds are ASCII `1234567890` repeated to 20, 32 and 64 bytes. */
const SEEDS: Record<Algorithm, Buffer> = {
  SHA1: Buffer.from('12345678901234567890'),
  SHA256: Buffer.from('12345678901234567890123456789012'),
  SHA512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const RFC6238: [number, Record<Algorithm, string>][] = [
  [59, { SHA1: '94287082', SHA256: '46119246', SHA512: '90693936' }],
  [1111111109, { SHA1: '07081804', SHA256: '68084774', SHA512: '25091201' }],
  [1111111111, { SHA1: '14050471', SHA256: '67062674', SHA512: '99943326' }],
  [1234567890, { SHA1: '89005924', SHA256: '91819424', SHA512: '93441116' }],
  [2000000000, { SHA1: '69279037', SHA256: '90698825', SHA512: '38618901' }],
  [20000000000, { SHA1: '65353130', SHA256: '77737706', SHA512: '47863826' }],
];

const params = (algorithm: Algorithm, digits = 8, periodSeconds = 30): OtpParams => ({
  secret: SEEDS[algorithm],
  algorithm,
  digits,
  periodSeconds,
});

describe('TOTP code generation', () => {
  for (const algorithm of ['SHA1', 'SHA256', 'SHA512'] as const) {
    it(`matches the RFC 6238 appendix B vectors for ${algorithm}`, () => {
      for (const [time, codes] of RFC6238) assert.equal(totp(params(algorithm), time), codes[algorithm], `t=${time}`);
    });
  }

  it('matches the RFC 4226 appendix D HOTP values', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    for (const [counter, code] of expected.entries()) assert.equal(hotp(SEEDS.SHA1, BigInt(counter), 'SHA1', 6), code);
  });

  it('keeps the last 6 digits of the 8-digit value', () => {
    assert.equal(totp(params('SHA1', 6), 59), '287082');
  });

  it('agrees with an independent library (otpauth) for every algorithm, digit count and period', () => {
    const secret = decodeKey('JBSWY3DPEHPK3PXP');
    for (const algorithm of ['SHA1', 'SHA256', 'SHA512'] as const) {
      for (const digits of [6, 8]) {
        for (const period of [30, 60, 17]) {
          const other = new OTPAuth.TOTP({
            secret: OTPAuth.Secret.fromBase32('JBSWY3DPEHPK3PXP'),
            algorithm,
            digits,
            period,
          });
          for (const t of [0, 1, 59, 1_700_000_000, 1_700_000_017, 4_102_444_800]) {
            assert.equal(
              totp({ secret, algorithm, digits, periodSeconds: period }, t),
              other.generate({ timestamp: t * 1000 }),
            );
          }
        }
      }
    }
  });
});

describe('TOTP code validation', () => {
  const p = params('SHA1', 6);
  const at = (t: number) => totp(p, t);

  it('accepts the current step only when skew is 0', () => {
    assert.equal(isValidCode(p, at(90), 95, 0), true);
    assert.equal(isValidCode(p, at(60), 95, 0), false);
    assert.equal(isValidCode(p, at(120), 95, 0), false);
  });

  it('accepts the previous, current and next step when skew is 1, and nothing further', () => {
    for (const t of [60, 90, 120]) assert.equal(isValidCode(p, at(t), 95, 1), true, `step of ${t}`);
    for (const t of [30, 150]) assert.equal(isValidCode(p, at(t), 95, 1), false, `step of ${t}`);
  });

  it('refuses a code of the wrong length without throwing', () => {
    assert.equal(isValidCode(p, at(90).slice(1), 95, 1), false);
    assert.equal(isValidCode(p, `${at(90)}0`, 95, 1), false);
    assert.equal(isValidCode(p, '', 95, 1), false);
    assert.equal(isValidCode(p, 'éééééé'.slice(0, 6), 95, 1), false, 'six characters but twelve bytes');
  });

  it('does not fail in the first step, where the step before wraps to 2^64 − 1 as upstream', () => {
    assert.equal(isValidCode(p, at(0), 10, 1), true);
    assert.equal(isValidCode(p, hotp(p.secret, (1n << 64n) - 1n, 'SHA1', 6), 10, 1), true);
  });
});

describe('base32 keys', () => {
  it('encodes without padding', () => {
    assert.equal(encodeBase32NoPadding(SEEDS.SHA1), 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    assert.equal(encodeBase32NoPadding(new Uint8Array(10)).length, 16);
    assert.equal(encodeBase32NoPadding(new Uint8Array(16)).length, 26);
    assert.equal(encodeBase32NoPadding(Buffer.from('f')), 'MY');
    assert.equal(encodeBase32NoPadding(Buffer.from('fooba')), 'MZXW6YTB');
  });

  it('decodes stored keys in either case and with or without padding', () => {
    assert.deepEqual(Buffer.from(decodeKey('gezdgnbvgy3tqojqgezdgnbvgy3tqojq')), SEEDS.SHA1);
    assert.deepEqual(Buffer.from(decodeKey('MZXW6YQ')), Buffer.from('foob'));
    assert.deepEqual(Buffer.from(decodeKey('MZXW6YQ=')), Buffer.from('foob'));
  });
});
