import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import * as OTPAuth from 'otpauth';
import { decodeQrPng } from '../src/engines/totp/testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 6: the TOTP engine's keys over real HTTP (spec 001 "One-time-password key";
// reference secrets-totp-ldap §1.1–1.5). Validation order and messages: §1.2.

const KEY = 'JBSWY3DPEHPK3PXP';
const GENERATED_URL =
  /^otpauth:\/\/totp\/Vault:test@test\.com\?algorithm=SHA1&digits=6&issuer=Vault&period=30&secret=([A-Z2-7]{32})$/;

describe('TOTP keys over HTTP', () => {
  let t: TestServer;
  let clock: FakeClock;
  let mounts = 0;

  async function mount(): Promise<string> {
    const path = `totp-${++mounts}`;
    const r = await t.request('POST', `sys/mounts/${path}`, { body: { type: 'totp' } });
    assert.equal(r.status, 204, JSON.stringify(r.body));
    return path;
  }

  /** Code of the current step, from an independent library. */
  function codeFor(secret: string, o: { algorithm?: string; digits?: number; period?: number } = {}): string {
    const other = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret.toUpperCase()), ...o });
    return other.generate({ timestamp: clock.now() });
  }

  before(async () => {
    clock = new FakeClock('2024-01-01T00:00:00Z');
    t = await startTestServer({ clock });
  });
  after(() => t.stop());

  describe('generated keys', () => {
    it('returns the URL in the established form and a 200×200 QR code of it', async () => {
      const m = await mount();
      const r = await t.request('POST', `${m}/keys/gen`, {
        body: { generate: true, issuer: 'Vault', account_name: 'test@test.com' },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(Object.keys(r.body.data).sort(), ['barcode', 'url']);
      const [, secret] = GENERATED_URL.exec(r.body.data.url) ?? assert.fail(r.body.data.url);
      assert.match(r.body.data.barcode, /^[A-Za-z0-9+/]+={0,2}$/, 'standard padded base64');
      const qr = decodeQrPng(Buffer.from(r.body.data.barcode, 'base64'));
      assert.deepEqual([qr.width, qr.height], [200, 200]);
      assert.equal(qr.text, r.body.data.url);
      const code = await t.request('GET', `${m}/code/gen`);
      assert.equal(code.body.data.code, codeFor(secret as string), 'the server uses the key it showed');
    });

    it('reads back the settings only: never the key, never skew', async () => {
      const m = await mount();
      await t.request('POST', `${m}/keys/gen`, { body: { generate: true, issuer: 'Vault', account_name: 'a@b' } });
      const r = await t.request('GET', `${m}/keys/gen`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.data, { issuer: 'Vault', account_name: 'a@b', period: 30, algorithm: 'SHA1', digits: 6 });
    });

    it('draws the QR code at qr_size, and leaves it out at 0', async () => {
      const m = await mount();
      const big = await t.request('POST', `${m}/keys/big`, {
        body: { generate: true, issuer: 'Vault', account_name: 'a@b', qr_size: 333 },
      });
      const qr = decodeQrPng(Buffer.from(big.body.data.barcode, 'base64'));
      assert.deepEqual([qr.width, qr.height, qr.text], [333, 333, big.body.data.url]);
      const none = await t.request('POST', `${m}/keys/none`, {
        body: { generate: true, issuer: 'Vault', account_name: 'a@b', qr_size: 0 },
      });
      assert.equal(none.status, 200);
      assert.deepEqual(Object.keys(none.body.data), ['url']);
    });

    it('returns nothing of the key when exported is false, yet makes codes from it', async () => {
      const m = await mount();
      const r = await t.request('POST', `${m}/keys/hidden`, {
        body: { generate: true, exported: false, issuer: 'Vault', account_name: 'a@b' },
      });
      assert.equal(r.status, 204);
      assert.equal(r.body, undefined);
      assert.match((await t.request('GET', `${m}/code/hidden`)).body.data.code, /^\d{6}$/);
    });

    it('sizes the secret by key_size (base32 without padding)', async () => {
      const m = await mount();
      for (const [keySize, length] of [
        [10, 16],
        [16, 26],
        [20, 32],
        [64, 103],
      ] as const) {
        const r = await t.request('POST', `${m}/keys/k${keySize}`, {
          body: { generate: true, issuer: 'I', account_name: 'a', key_size: keySize, qr_size: 0 },
        });
        const secret = new URL(r.body.data.url).searchParams.get('secret') ?? '';
        assert.equal(secret.length, length, `key_size ${keySize}`);
        assert.match(secret, /^[A-Z2-7]+$/);
      }
    });

    it('puts algorithm, digits and period into the URL and the codes, and escapes the label', async () => {
      const m = await mount();
      const r = await t.request('POST', `${m}/keys/custom`, {
        body: {
          generate: true,
          issuer: 'Example Co',
          account_name: 'alice@example.com',
          algorithm: 'SHA512',
          digits: 8,
          period: '1m',
          qr_size: 0,
        },
      });
      const url: string = r.body.data.url;
      assert.match(
        url,
        /^otpauth:\/\/totp\/Example%20Co:alice@example\.com\?algorithm=SHA512&digits=8&issuer=Example%20Co&period=60&secret=[A-Z2-7]{32}$/,
      );
      const parsed = OTPAuth.URI.parse(url);
      assert.ok(parsed instanceof OTPAuth.TOTP);
      assert.equal(
        (await t.request('GET', `${m}/code/custom`)).body.data.code,
        parsed.generate({ timestamp: clock.now() }),
      );
    });

    it('makes a new secret each time the key is written', async () => {
      const m = await mount();
      const body = { generate: true, issuer: 'I', account_name: 'a', qr_size: 0 };
      const first = (await t.request('POST', `${m}/keys/again`, { body })).body.data.url;
      const second = (await t.request('POST', `${m}/keys/again`, { body })).body.data.url;
      assert.notEqual(first, second);
    });

    it('refuses a qr_size too small for the symbol, and stores nothing', async () => {
      const m = await mount();
      const r = await t.request('POST', `${m}/keys/tiny`, {
        body: { generate: true, issuer: 'Vault', account_name: 'test@test.com', qr_size: 20 },
      });
      assert.equal(r.status, 400);
      assert.match(
        r.body.errors[0],
        /^failed to generate QR code image: can not scale barcode to an image smaller than (\d+)x\1$/,
      );
      assert.equal((await t.request('GET', `${m}/keys/tiny`)).status, 404);
    });
  });

  describe('supplied keys', () => {
    it('stores a base32 key in either case, and makes the codes an independent library makes', async () => {
      const m = await mount();
      for (const [name, key] of [
        ['upper', KEY],
        ['lower', KEY.toLowerCase()],
        ['unpadded', 'MZXW6YTBOI'], // 10 characters: padded to 16 before decoding
      ] as const) {
        const w = await t.request('POST', `${m}/keys/${name}`, { body: { key } });
        assert.equal(w.status, 204, JSON.stringify(w.body));
        assert.equal((await t.request('GET', `${m}/code/${name}`)).body.data.code, codeFor(key), name);
      }
      const r = await t.request('GET', `${m}/keys/upper`);
      assert.deepEqual(r.body.data, { issuer: '', account_name: '', period: 30, algorithm: 'SHA1', digits: 6 });
    });

    it('takes period as seconds or a duration, and algorithm and digits from the body', async () => {
      const m = await mount();
      for (const [period, seconds] of [
        [45, 45],
        ['90', 90],
        ['2m', 120],
        ['1m30.9s', 90],
      ] as const) {
        await t.request('POST', `${m}/keys/p`, { body: { key: KEY, period, algorithm: 'SHA256', digits: 8 } });
        const r = await t.request('GET', `${m}/keys/p`);
        assert.equal(r.body.data.period, seconds, String(period));
        const code = (await t.request('GET', `${m}/code/p`)).body.data.code;
        assert.equal(code, codeFor(KEY, { algorithm: 'SHA256', digits: 8, period: seconds }));
      }
    });

    it('imports the reference URL', async () => {
      const m = await mount();
      const url = 'otpauth://totp/Example%20Co:alice@example.com?secret=jbswy3dpehpk3pxp&issuer=Example%20Co&digits=8';
      assert.equal((await t.request('POST', `${m}/keys/imported`, { body: { url } })).status, 204);
      const r = await t.request('GET', `${m}/keys/imported`);
      assert.deepEqual(r.body.data, {
        issuer: 'Example Co',
        account_name: 'alice@example.com',
        period: 30,
        algorithm: 'SHA1',
        digits: 8,
      });
      assert.equal((await t.request('GET', `${m}/code/imported`)).body.data.code, codeFor(KEY, { digits: 8 }));
    });

    it('lets the URL override the body: account always, the rest when present', async () => {
      const m = await mount();
      const body = { issuer: 'BodyIssuer', account_name: 'body', period: 60, algorithm: 'SHA256', digits: 8 };
      await t.request('POST', `${m}/keys/u1`, { body: { ...body, url: `otpauth://totp/acct?secret=${KEY}` } });
      assert.deepEqual((await t.request('GET', `${m}/keys/u1`)).body.data, {
        issuer: 'BodyIssuer',
        account_name: 'acct',
        period: 60,
        algorithm: 'SHA256',
        digits: 8,
      });
      const url = `otpauth://totp/LabelIssuer:?secret=${KEY}&period=15&algorithm=SHA512&digits=6`;
      await t.request('POST', `${m}/keys/u2`, { body: { ...body, url } });
      assert.deepEqual((await t.request('GET', `${m}/keys/u2`)).body.data, {
        issuer: 'LabelIssuer',
        account_name: '',
        period: 15,
        algorithm: 'SHA512',
        digits: 6,
      });
    });
  });

  describe('list, read, delete and names', () => {
    it('lists names sorted, 404 when there are none', async () => {
      const m = await mount();
      assert.deepEqual((await t.request('LIST', `${m}/keys`)).body, { errors: [] });
      for (const name of ['zeta', 'alpha', 'mid.dle@x-y'])
        await t.request('POST', `${m}/keys/${name}`, { body: { key: KEY } });
      for (const path of [`${m}/keys`, `${m}/keys/`]) {
        const r = await t.request('LIST', path);
        assert.equal(r.status, 200);
        assert.deepEqual(r.body.data, { keys: ['alpha', 'mid.dle@x-y', 'zeta'] });
        assert.equal(r.body.auth, null);
        assert.equal(r.body.lease_id, '');
        assert.equal(r.body.lease_duration, 0);
        assert.equal(r.body.renewable, false);
      }
      assert.deepEqual((await t.request('GET', `${m}/keys?list=true`)).body.data.keys.length, 3);
    });

    it('reads 404 for a missing key and deletes with 204, missing or not', async () => {
      const m = await mount();
      assert.deepEqual((await t.request('GET', `${m}/keys/nope`)).body, { errors: [] });
      await t.request('POST', `${m}/keys/k`, { body: { key: KEY } });
      assert.equal((await t.request('DELETE', `${m}/keys/k`)).status, 204);
      assert.equal((await t.request('GET', `${m}/keys/k`)).status, 404);
      assert.equal((await t.request('DELETE', `${m}/keys/k`)).status, 204);
      assert.deepEqual((await t.request('GET', `${m}/code/k`)).body, { errors: ['unknown key: k'] });
    });

    it('matches no path for names outside the established pattern', async () => {
      const m = await mount();
      for (const name of ['-lead', 'trail-', 'a%20b', '.dot', 'a@']) {
        for (const path of [`${m}/keys/${name}`, `${m}/code/${name}`]) {
          const r = await t.request('POST', path, { body: { key: KEY, code: '123456' } });
          assert.equal(r.status, 404, `${path}: ${JSON.stringify(r.body)}`);
        }
      }
      for (const name of ['a', 'A_1', 'a.b@c-d', 'x@y']) {
        assert.equal((await t.request('POST', `${m}/keys/${name}`, { body: { key: KEY } })).status, 204, name);
      }
    });

    it('mounts at any path and keeps mounts apart', async () => {
      const a = await mount();
      const r = await t.request('POST', 'sys/mounts/team/otp', { body: { type: 'totp' } });
      assert.equal(r.status, 204);
      await t.request('POST', `${a}/keys/only-a`, { body: { key: KEY } });
      assert.equal((await t.request('GET', 'team/otp/keys/only-a')).status, 404);
    });
  });

  describe('existence check', () => {
    /** A token whose only right on the mount's keys is `capability`. */
    async function tokenWith(m: string, capability: string): Promise<string> {
      const policy = `path "${m}/keys/*" { capabilities = ["${capability}"] }`;
      assert.equal((await t.request('PUT', `sys/policies/acl/${m}-${capability}`, { body: { policy } })).status, 204);
      const r = await t.request('POST', 'auth/token/create', { body: { policies: [`${m}-${capability}`] } });
      return r.body.auth.client_token;
    }

    it('makes writing a new key a create and overwriting one an update, for ACL', async () => {
      const m = await mount();
      const create = await tokenWith(m, 'create');
      const update = await tokenWith(m, 'update');
      const write = (name: string, token: string) =>
        t.request('POST', `${m}/keys/${name}`, { token, body: { key: KEY } });
      assert.equal((await write('new1', update)).status, 403, 'update alone cannot create');
      assert.equal((await write('new1', create)).status, 204);
      assert.equal((await write('new1', create)).status, 403, 'create alone cannot overwrite');
      assert.equal((await write('new1', update)).status, 204);
    });
  });

  describe('help', () => {
    it('documents every path, from the mount root and from each path', async () => {
      const m = await mount();
      const root = await t.request('GET', `${m}/?help=1`);
      assert.equal(root.status, 200, JSON.stringify(root.body));
      assert.match(root.body.help, /time-based one-time passwords/);
      for (const path of ['/keys/', '/keys/{name}', '/code/{name}']) assert.ok(root.body.help.includes(path), path);
      for (const [p, synopsis] of [
        ['keys/', 'List the keys.'],
        ['keys/x', 'Manage the keys codes are made from.'],
        ['code/x', 'Generate or check a time-based one-time password.'],
      ] as const) {
        const one = await t.request('GET', `${m}/${p}?help=1`);
        assert.equal(one.status, 200, p);
        assert.ok(one.body.help.includes(synopsis), `${p}: ${one.body.help}`);
      }
    });
  });
});
