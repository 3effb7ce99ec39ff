import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { HELD_KEY_TYPES } from './key-types.js';
import { transitForTest } from './testing.js';

// Issue 32: every key type the established engine holds, and the upkeep of keys (config, rotate, trim, delete).

describe('transit keys/:name', () => {
  it('creates each key type; the read shows capabilities and public keys, never private material', async () => {
    const t = await transitForTest();
    for (const type of HELD_KEY_TYPES) {
      const created = await t.ok(`keys/${type}`, { type });
      assert.equal(created.type, type);
      const read = await t.get(`keys/${type}`);
      assert.equal(read.latest_version, 1);
      const asymmetric = /^(ed25519|ecdsa|rsa)/.test(type);
      assert.equal(read.supports_signing, asymmetric, type);
      assert.equal(read.supports_encryption, !asymmetric ? type !== 'hmac' : type.startsWith('rsa'), type);
      if (type === 'hmac') assert.equal(read.keys, undefined, 'the established read lists no hmac versions');
      else if (!asymmetric) assert.equal(typeof read.keys['1'], 'number');
      else {
        const v1 = read.keys['1'];
        assert.equal(typeof v1.creation_time, 'string');
        const key =
          type === 'ed25519'
            ? createPublicKey({
                key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(v1.public_key, 'base64').toString('base64url') },
                format: 'jwk',
              })
            : createPublicKey(v1.public_key);
        assert.equal(key.type, 'public');
      }
      assert.doesNotMatch(JSON.stringify(read), /PRIVATE/);
    }
    assert.deepEqual((await t.list('keys'))?.data?.keys, [...HELD_KEY_TYPES].sort());
  });

  it('refuses what the established engine refuses', async () => {
    const t = await transitForTest();
    const refusals: Record<string, unknown>[] = [
      { type: 'kitty' },
      { convergent_encryption: true },
      { type: 'rsa-2048', derived: true },
      { type: 'aes256-gcm96', key_size: 64 },
      { type: 'hmac', key_size: 16 },
      { auto_rotate_period: '30m' },
    ];
    for (const body of refusals)
      await assert.rejects(t.write('keys/k', body), InvalidRequestError, JSON.stringify(body));
    assert.equal(await t.read('keys/k').catch((e) => e.code), 'not_found');
    const again = await t.write('keys/k', { auto_rotate_period: '1h' });
    assert.equal(again?.data?.auto_rotate_period, 3600);
    assert.deepEqual((await t.write('keys/k'))?.warnings, ['key k already existed']);
  });

  it('rotates, keeps min versions in order, trims, and deletes only once allowed', async () => {
    const t = await transitForTest();
    await t.ok('keys/app');
    for (let i = 0; i < 10; i++) await t.ok('keys/app/rotate');
    assert.equal((await t.get('keys/app')).latest_version, 11);
    await assert.rejects(t.write('keys/app/config', { min_decryption_version: 12 }), InvalidRequestError);
    await assert.rejects(
      t.write('keys/app/config', { min_decryption_version: 5, min_encryption_version: 4 }),
      InvalidRequestError,
    );
    await assert.rejects(
      t.write('keys/app/trim', { min_available_version: 2 }),
      InvalidRequestError,
      'no min encryption',
    );
    const config = await t.ok('keys/app/config', { min_decryption_version: 3, min_encryption_version: 9 });
    assert.deepEqual([config.min_decryption_version, config.min_encryption_version], [3, 9]);
    await assert.rejects(
      t.write('keys/app/trim', { min_available_version: 4 }),
      InvalidRequestError,
      'above min_decryption',
    );
    const trimmed = await t.ok('keys/app/trim', { min_available_version: 2 });
    assert.deepEqual(
      Object.keys(trimmed.keys).sort((a, b) => Number(a) - Number(b)),
      ['2', '3', '4', '5', '6', '7', '8', '9', '10', '11'],
    );
    await assert.rejects(t.write('keys/app/trim', { min_available_version: 1 }), InvalidRequestError, 'no going back');
    await assert.rejects(
      t.write('encrypt/app', { plaintext: '', key_version: 8 }),
      InvalidRequestError,
      'below min_encryption',
    );

    await t.ok('keys/app/config', { exportable: true });
    assert.equal((await t.ok('keys/app/config', { exportable: false })).exportable, true, 'export cannot be undone');
    await assert.rejects(t.delete('keys/app'), InvalidRequestError);
    await t.ok('keys/app/config', { deletion_allowed: true });
    await t.delete('keys/app');
    assert.equal(await t.read('keys/app').catch((e) => e.code), 'not_found');
  });

  it('rotates a key by itself once its auto_rotate_period has passed', async () => {
    const t = await transitForTest();
    await t.ok('keys/auto', { auto_rotate_period: '1h' });
    await t.ok('keys/still');
    const [task] = t.backend.periodic;
    await task?.run();
    assert.equal((await t.get('keys/auto')).latest_version, 1);
    (t.clock as unknown as { advance(ms: number): void }).advance(3_600_000);
    await task?.run();
    assert.equal((await t.get('keys/auto')).latest_version, 2);
    assert.equal((await t.get('keys/still')).latest_version, 1);
  });
});
