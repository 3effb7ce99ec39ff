import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 6: every rule of a TOTP key write over real HTTP, with its established message
// and a 400, in the established order (reference secrets-totp-ldap §1.2): each case
// breaks two rules and expects the earlier one's message.

const KEY = 'JBSWY3DPEHPK3PXP';

describe('TOTP key rules over HTTP', () => {
  let t: TestServer;
  let mounts = 0;

  async function mount(): Promise<string> {
    const path = `totp-rules-${++mounts}`;
    const r = await t.request('POST', `sys/mounts/${path}`, { body: { type: 'totp' } });
    assert.equal(r.status, 204, JSON.stringify(r.body));
    return path;
  }

  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  describe('validation, in the established order (first failure wins)', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'key with generate',
        { generate: true, key: KEY, url: 'otpauth://totp/x' },
        'a key should not be passed if generate is true',
      ],
      [
        'url with generate',
        { generate: true, url: 'otpauth://totp/x', digits: 7 },
        'a url should not be passed if generate is true',
      ],
      ['unparsable url', { url: 'otpauth://totp/%zz', digits: 7 }, 'an error occurred while parsing url string'],
      [
        'url period',
        { url: 'otpauth://totp/x?period=30s&digits=x' },
        'an error occurred while parsing period value in url',
      ],
      [
        'url digits',
        { url: 'otpauth://totp/x?digits=x&algorithm=MD5' },
        'an error occurred while parsing digits value in url',
      ],
      ['digits', { key: KEY, digits: 7, algorithm: 'MD5' }, 'the digits value can only be 6 or 8'],
      ['digits from url', { url: `otpauth://totp/x?secret=${KEY}&digits=10` }, 'the digits value can only be 6 or 8'],
      ['algorithm', { key: KEY, algorithm: 'MD5', period: 0 }, 'the algorithm value is not valid'],
      ['algorithm case', { key: KEY, algorithm: 'sha256' }, 'the algorithm value is not valid'],
      [
        'algorithm from url',
        { url: `otpauth://totp/x?secret=${KEY}&algorithm=sha1` },
        'the algorithm value is not valid',
      ],
      ['period zero', { key: KEY, period: 0, skew: 2 }, 'the period value must be greater than zero'],
      ['period 0s', { key: KEY, period: '0s' }, 'the period value must be greater than zero'],
      ['negative period', { key: KEY, period: -30 }, 'the period value must be greater than zero'],
      ['negative duration', { key: KEY, period: '-1m' }, 'the period value must be greater than zero'],
      [
        'period from url',
        { url: `otpauth://totp/x?secret=${KEY}&period=0` },
        'the period value must be greater than zero',
      ],
      ['skew 2', { key: KEY, skew: 2, qr_size: -1 }, 'the skew value must be 0 or 1'],
      ['skew -1', { key: KEY, skew: -1 }, 'the skew value must be 0 or 1'],
      ['qr_size', { key: KEY, qr_size: -1, key_size: 0 }, 'the qr_size value must be greater than or equal to zero'],
      ['key_size, even for a supplied key', { key: KEY, key_size: 0 }, 'the key_size value must be greater than zero'],
      ['key_size first', { generate: true, key_size: -5 }, 'the key_size value must be greater than zero'],
      ['account_name', { generate: true }, 'the account_name value is required for generated keys'],
      ['issuer', { generate: true, account_name: 'a' }, 'the issuer value is required for generated keys'],
      ['no key', { issuer: 'I' }, 'the key value is required'],
      ['url without secret', { url: 'otpauth://totp/I:a' }, 'the key value is required'],
      ['key with a space', { key: 'JBS WY3DP' }, 'invalid key value: illegal base32 data at input byte 3'],
      ['key with a 1', { key: 'JBSWY3D1' }, 'invalid key value: illegal base32 data at input byte 7'],
      ['key of 9 characters', { key: 'JBSWY3DPE' }, 'invalid key value: illegal base32 data at input byte 9'],
      [
        'key_size too large',
        { generate: true, account_name: 'a', issuer: 'I', key_size: 4097 },
        'the key_size value must be at most 4096',
      ],
      [
        'qr_size too large',
        { generate: true, account_name: 'a', issuer: 'I', qr_size: 2049 },
        'the qr_size value must be at most 2048',
      ],
    ];
    for (const [name, body, message] of cases) {
      it(`${name}: 400 "${message}"`, async () => {
        const m = await mount();
        const r = await t.request('POST', `${m}/keys/k`, { body });
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.deepEqual(r.body, { errors: [message] });
        assert.equal((await t.request('GET', `${m}/keys/k`)).status, 404, 'nothing stored');
      });
    }

    it('allows a large qr_size when nothing is exported', async () => {
      const m = await mount();
      const body = { generate: true, account_name: 'a', issuer: 'I', qr_size: 5000, exported: false };
      assert.equal((await t.request('POST', `${m}/keys/k`, { body })).status, 204);
    });

    it('refuses values of the wrong type as field validation errors', async () => {
      const m = await mount();
      for (const body of [{ key: KEY, digits: 'six' }, { key: KEY, period: 'soon' }, { generate: 'maybe' }]) {
        const r = await t.request('POST', `${m}/keys/k`, { body });
        assert.equal(r.status, 400);
        assert.match(
          r.body.errors[0],
          /^Field validation failed: error converting input for field "(digits|period|generate)"/,
        );
      }
    });

    it('accepts string forms of numbers and booleans', async () => {
      const m = await mount();
      const body = {
        generate: 'true',
        exported: 'false',
        account_name: 'a',
        issuer: 'I',
        digits: '8',
        skew: '0',
        key_size: '10',
      };
      assert.equal((await t.request('POST', `${m}/keys/k`, { body })).status, 204);
      assert.equal((await t.request('GET', `${m}/keys/k`)).body.data.digits, 8);
    });
  });
});
