import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import * as OTPAuth from 'otpauth';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 6: generating and validating codes over real HTTP (reference secrets-totp-ldap
// §1.6–1.7): RFC 6238 vectors, skew, constant-time validation, replay refusal.

const KEY = 'JBSWY3DPEHPK3PXP';
const USED = 'code already used; wait until the next time period';
const START = Date.parse('2024-01-01T00:00:00Z'); // a multiple of 30 s: step boundaries are predictable

/** RFC 6238 appendix B seeds in base32, and the 8-digit codes at each time. */
const SEEDS = {
  SHA1: Buffer.from('12345678901234567890'),
  SHA256: Buffer.from('12345678901234567890123456789012'),
  SHA512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, Record<keyof typeof SEEDS, string>][] = [
  [59, { SHA1: '94287082', SHA256: '46119246', SHA512: '90693936' }],
  [1111111109, { SHA1: '07081804', SHA256: '68084774', SHA512: '25091201' }],
  [1111111111, { SHA1: '14050471', SHA256: '67062674', SHA512: '99943326' }],
  [1234567890, { SHA1: '89005924', SHA256: '91819424', SHA512: '93441116' }],
  [2000000000, { SHA1: '69279037', SHA256: '90698825', SHA512: '38618901' }],
  [20000000000, { SHA1: '65353130', SHA256: '77737706', SHA512: '47863826' }],
];

describe('TOTP codes: RFC 6238 vectors over HTTP', () => {
  let t: TestServer;
  const clock = new FakeClock(59_000);
  before(async () => {
    t = await startTestServer({ clock });
    await t.request('POST', 'sys/mounts/totp', { body: { type: 'totp' } });
    for (const [algorithm, seed] of Object.entries(SEEDS)) {
      const key = new OTPAuth.Secret({ buffer: seed.buffer.slice(seed.byteOffset, seed.byteOffset + seed.length) })
        .base32;
      const r = await t.request('POST', `totp/keys/${algorithm}`, { body: { key, algorithm, digits: 8 } });
      assert.equal(r.status, 204, JSON.stringify(r.body));
    }
  });
  after(() => t.stop());

  it('generates and accepts the appendix B codes for SHA1, SHA256 and SHA512 at the vector times', async () => {
    for (const [time, codes] of VECTORS) {
      clock.advance(time * 1000 - clock.now());
      for (const [algorithm, code] of Object.entries(codes)) {
        const r = await t.request('GET', `totp/code/${algorithm}`);
        assert.deepEqual(r.body.data, { code }, `${algorithm} at ${time}`);
        const v = await t.request('POST', `totp/code/${algorithm}`, { body: { code } });
        assert.deepEqual(v.body.data, { valid: true }, `${algorithm} at ${time}`);
      }
    }
  });
});

describe('TOTP codes over HTTP', () => {
  let t: TestServer;
  const clock = new FakeClock(START);
  let keys = 0;

  /** A fresh key on the `totp` mount; `body` adds settings. Returns its name. */
  async function key(body: Record<string, unknown> = {}): Promise<string> {
    const name = `k${++keys}`;
    const r = await t.request('POST', `totp/keys/${name}`, { body: { key: KEY, ...body } });
    assert.equal(r.status, 204, JSON.stringify(r.body));
    return name;
  }
  const otp = (o: { digits?: number; period?: number; algorithm?: string } = {}) =>
    new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(KEY), ...o });
  /** The code `steps` time steps from now, by an independent library. */
  const codeAt = (steps: number, period = 30) =>
    otp({ period }).generate({ timestamp: clock.now() + steps * period * 1000 });
  const check = (name: string, code: unknown) => t.request('POST', `totp/code/${name}`, { body: { code } });

  before(async () => {
    t = await startTestServer({ clock });
    await t.request('POST', 'sys/mounts/totp', { body: { type: 'totp' } });
  });
  after(() => t.stop());

  it('generates the code of the current step', async () => {
    const name = await key();
    const r = await t.request('GET', `totp/code/${name}`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, { code: codeAt(0) });
    clock.advance(30_000);
    assert.equal((await t.request('GET', `totp/code/${name}`)).body.data.code, codeAt(0));
  });

  it('accepts a valid code once, then refuses it with 400', async () => {
    const name = await key();
    const code = (await t.request('GET', `totp/code/${name}`)).body.data.code;
    const first = await check(name, code);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body.data, { valid: true });
    const again = await check(name, code);
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { errors: [USED] });
  });

  it('answers valid:false for a wrong code, and then refuses that code too (as established)', async () => {
    const name = await key();
    const wrong = codeAt(5);
    assert.deepEqual((await check(name, wrong)).body.data, { valid: false });
    assert.deepEqual((await check(name, wrong)).body, { errors: [USED] });
  });

  it('answers valid:false for a code of the wrong length', async () => {
    const name = await key();
    for (const code of [codeAt(0).slice(1), `${codeAt(0)}0`, 'abcdef', 'x']) {
      assert.deepEqual((await check(name, code)).body.data, { valid: false }, code);
    }
  });

  it('trims whitespace around a code; the trimmed code is the one remembered', async () => {
    const name = await key();
    assert.deepEqual((await check(name, ` ${codeAt(0)}\n`)).body.data, { valid: true });
    assert.deepEqual((await check(name, codeAt(0))).body, { errors: [USED] });
  });

  it('accepts a code given as a JSON number', async () => {
    const name = await key();
    let code = codeAt(0);
    while (code.startsWith('0')) {
      clock.advance(30_000);
      code = codeAt(0);
    }
    assert.deepEqual((await check(name, Number(code))).body.data, { valid: true });
  });

  it('with skew 1 (the default) accepts the previous, current and next step, and no further', async () => {
    const name = await key();
    for (const steps of [-1, 0, 1])
      assert.deepEqual((await check(name, codeAt(steps))).body.data, { valid: true }, `${steps}`);
    for (const steps of [-2, 2])
      assert.deepEqual((await check(name, codeAt(steps))).body.data, { valid: false }, `${steps}`);
  });

  it('with skew 0 accepts the current step only', async () => {
    const name = await key({ skew: 0 });
    for (const steps of [-1, 1])
      assert.deepEqual((await check(name, codeAt(steps))).body.data, { valid: false }, `${steps}`);
    assert.deepEqual((await check(name, codeAt(0))).body.data, { valid: true });
  });

  it('uses the key period for steps and skew', async () => {
    const name = await key({ period: 60, digits: 8, algorithm: 'SHA256' });
    const at = (steps: number) =>
      otp({ period: 60, digits: 8, algorithm: 'SHA256' }).generate({ timestamp: clock.now() + steps * 60_000 });
    assert.equal((await t.request('GET', `totp/code/${name}`)).body.data.code, at(0));
    assert.deepEqual((await check(name, at(1))).body.data, { valid: true });
    assert.deepEqual((await check(name, at(2))).body.data, { valid: false });
  });

  it('refuses a used code for period × (2 + skew) seconds, then forgets it', async () => {
    for (const [skew, period] of [
      [1, 30],
      [0, 30],
      [1, 45],
    ] as const) {
      const name = await key({ skew, period });
      const code = codeAt(0, period);
      assert.deepEqual((await check(name, code)).body.data, { valid: true });
      const refusedMs = period * (2 + skew) * 1000;
      clock.advance(refusedMs - 1);
      assert.deepEqual(
        (await check(name, code)).body,
        { errors: [USED] },
        `skew ${skew} period ${period}: still refused`,
      );
      clock.advance(1);
      const later = await check(name, code);
      assert.equal(later.status, 200, `skew ${skew} period ${period}: forgotten`);
      assert.deepEqual(later.body.data, { valid: false }, 'by then the code is out of its window anyway');
    }
  });

  it('keeps the replay record per key', async () => {
    const a = await key();
    const b = await key();
    assert.deepEqual((await check(a, codeAt(0))).body.data, { valid: true });
    assert.deepEqual((await check(b, codeAt(0))).body.data, { valid: true });
  });

  it('checks against a rewritten key at once, within the same step, and after a delete refuses it', async () => {
    const name = await key();
    assert.equal((await t.request('GET', `totp/code/${name}`)).body.data.code, codeAt(0));
    const other = 'KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TFOQ';
    const r = await t.request('POST', `totp/keys/${name}`, { body: { key: other, skew: 0 } });
    assert.equal(r.status, 204);
    const otherCode = (steps: number) =>
      new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(other) }).generate({
        timestamp: clock.now() + steps * 30_000,
      });
    assert.equal((await t.request('GET', `totp/code/${name}`)).body.data.code, otherCode(0));
    assert.deepEqual((await check(name, codeAt(0))).body.data, { valid: false }, 'the old key');
    assert.deepEqual((await check(name, otherCode(1))).body.data, { valid: false }, 'skew 0 now');
    assert.deepEqual((await check(name, otherCode(0))).body.data, { valid: true });
    await t.request('DELETE', `totp/keys/${name}`);
    assert.deepEqual((await check(name, otherCode(-1))).body, { errors: [`unknown key: ${name}`] });
  });

  it('lets exactly one of many concurrent checks of the same code through', async () => {
    const name = await key();
    const results = await Promise.all(Array.from({ length: 12 }, () => check(name, codeAt(0))));
    assert.equal(results.filter((r) => r.status === 200 && r.body.data.valid === true).length, 1);
    assert.equal(results.filter((r) => r.status === 400 && r.body.errors[0] === USED).length, 11);
  });

  it('requires a code before looking at the key, as established', async () => {
    const name = await key();
    for (const body of [{}, { code: '' }, { code: '   ' }]) {
      for (const target of [name, 'no-such-key']) {
        const r = await t.request('POST', `totp/code/${target}`, { body });
        assert.equal(r.status, 400);
        assert.deepEqual(r.body, { errors: ['the code value is required'] });
      }
    }
  });

  it('answers 400 "unknown key: <name>" for a missing key, generating or checking', async () => {
    for (const r of [await t.request('GET', 'totp/code/nokey'), await check('nokey', '123456')]) {
      assert.equal(r.status, 400);
      assert.deepEqual(r.body, { errors: ['unknown key: nokey'] });
    }
  });

  it('accepts a code from a generated key that an independent library computes from its URL', async () => {
    const r = await t.request('POST', 'totp/keys/gen', {
      body: {
        generate: true,
        issuer: 'Ward',
        account_name: 'me@example.com',
        algorithm: 'SHA256',
        digits: 8,
        qr_size: 0,
      },
    });
    const other = OTPAuth.URI.parse(r.body.data.url);
    assert.deepEqual((await check('gen', other.generate({ timestamp: clock.now() }))).body.data, { valid: true });
  });

  it('answers 405 for verbs the code path does not have', async () => {
    const name = await key();
    assert.equal((await t.request('DELETE', `totp/code/${name}`)).status, 405);
    assert.equal((await t.request('LIST', 'totp/code')).status, 404);
  });
});
