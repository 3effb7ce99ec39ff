import assert from 'node:assert/strict';
import { createDecipheriv, createPublicKey, generateKeyPairSync, hkdfSync, randomBytes, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import forge from 'node-forge';
import { InvalidRequestError } from '../../logical/errors.js';
import { b64, transitForTest, wrapForImport as wrap } from './testing.js';

// Issue 32: bring your own key, wrapped as established (RSA-OAEP of an ephemeral AES key, then AES-KWP).

describe('transit BYOK import', () => {
  it('imports an AES key whose ciphertexts the caller opens with the material, and an ed25519 key that signs', async () => {
    const t = await transitForTest();
    const { public_key } = await t.get('wrapping_key');
    assert.match(public_key, /BEGIN PUBLIC KEY/);
    const material = randomBytes(32);
    const imported = await t.ok('keys/byok/import', { ciphertext: wrap(public_key, material) });
    assert.equal(imported.imported_key, true);
    const { ciphertext } = await t.ok('encrypt/byok', { plaintext: b64('mine') });
    const payload = Buffer.from(ciphertext.split(':')[2], 'base64');
    const decipher = createDecipheriv('aes-256-gcm', material, payload.subarray(0, 12));
    decipher.setAuthTag(payload.subarray(payload.length - 16));
    assert.equal(
      Buffer.concat([decipher.update(payload.subarray(12, payload.length - 16)), decipher.final()]).toString(),
      'mine',
    );
    await assert.rejects(
      t.write('keys/byok/rotate'),
      InvalidRequestError,
      'imported keys do not rotate without allow_rotation',
    );
    await assert.rejects(
      t.write('keys/byok/import', { ciphertext: wrap(public_key, material) }),
      InvalidRequestError,
      'exists',
    );
    const v2 = await t.ok('keys/byok/import_version', {
      ciphertext: wrap(public_key, randomBytes(32), 'sha512'),
      hash_function: 'SHA512',
    });
    assert.equal(v2.latest_version, 2);

    const pair = generateKeyPairSync('ed25519');
    const der = pair.privateKey.export({ format: 'der', type: 'pkcs8' });
    await t.ok('keys/signer/import', { ciphertext: wrap(public_key, der), type: 'ed25519', allow_rotation: true });
    const { signature } = await t.ok('sign/signer', { input: b64('hello') });
    assert.ok(verify(null, Buffer.from('hello'), pair.publicKey, Buffer.from(signature.split(':')[2], 'base64')));
    await t.ok('keys/signer/rotate');
  });

  it('imports a derived ed25519 key: each context signs with the key HKDF-SHA256 derives from the imported seed', async () => {
    const t = await transitForTest();
    const { public_key } = await t.get('wrapping_key');
    const pair = generateKeyPairSync('ed25519');
    const der = pair.privateKey.export({ format: 'der', type: 'pkcs8' });
    await t.ok('keys/derived/import', { ciphertext: wrap(public_key, der), type: 'ed25519', derived: true });
    assert.equal((await t.get('keys/derived')).derived, true);
    await assert.rejects(t.write('sign/derived', { input: b64('hello') }), /context/);
    const context = Buffer.from('tenant-1');
    const { signature, publickey } = await t.ok('sign/derived', { input: b64('hello'), context: b64('tenant-1') });
    // The established derivation, done here with Node's crypto: HKDF-SHA256(seed ‖ public key, info = context).
    const jwk = pair.privateKey.export({ format: 'jwk' });
    const root = Buffer.concat([Buffer.from(jwk.d ?? '', 'base64url'), Buffer.from(jwk.x ?? '', 'base64url')]);
    const seed = Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), context, 32));
    // The derived public key from the seed by another implementation (node-forge's ed25519).
    const raw = Buffer.from(forge.pki.ed25519.generateKeyPair({ seed }).publicKey);
    assert.equal(publickey, raw.toString('base64'));
    const derivedPublic = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
      format: 'jwk',
    });
    assert.ok(verify(null, Buffer.from('hello'), derivedPublic, Buffer.from(signature.split(':')[2], 'base64')));
    assert.equal(
      (await t.ok('verify/derived', { input: b64('hello'), context: b64('tenant-1'), signature })).valid,
      true,
    );
    const pem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    await assert.rejects(
      t.write('keys/pub/import', { public_key: pem, type: 'ed25519', derived: true }),
      /public key alone/,
    );
    await assert.rejects(
      t.write('keys/ec/import', {
        ciphertext: wrap(
          public_key,
          generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'der', type: 'pkcs8' }),
        ),
        type: 'ecdsa-p256',
        derived: true,
      }),
      /key derivation not supported/,
    );
  });

  it('refuses material of the wrong size or type, and ciphertexts not made with the wrapping key', async () => {
    const t = await transitForTest();
    const { public_key } = await t.get('wrapping_key');
    await assert.rejects(
      t.write('keys/short/import', { ciphertext: wrap(public_key, randomBytes(16)) }),
      InvalidRequestError,
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'der', type: 'pkcs8' });
    await assert.rejects(
      t.write('keys/ed/import', { ciphertext: wrap(public_key, ec), type: 'ed25519' }),
      InvalidRequestError,
    );
    const other = generateKeyPairSync('rsa', { modulusLength: 4096 })
      .publicKey.export({ format: 'pem', type: 'spki' })
      .toString();
    await assert.rejects(t.write('keys/x/import', { ciphertext: wrap(other, randomBytes(32)) }), InvalidRequestError);
    assert.equal(await t.read('keys/x').catch((e) => e.code), 'not_found');
  });
});
