import assert from 'node:assert/strict';
import { constants, createHmac, createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { b64, transitForTest } from './testing.js';

// Issue 32: sign/verify with every asymmetric key type the engine holds, checked by an independent
// verifier (Node's crypto with the key read from the engine), and HMACs.

const message = Buffer.from('sign me');
const signatureOf = (text: string, encoding: BufferEncoding = 'base64') =>
  Buffer.from(text.split(':')[2] ?? '', encoding);

describe('transit sign/verify', () => {
  it('signs with ed25519, ECDSA (DER, and r ‖ s for jws) and RSA (PSS, PKCS#1 v1.5) as an independent verifier expects', async () => {
    const t = await transitForTest();
    for (const type of ['ed25519', 'ecdsa-p256', 'ecdsa-p384', 'ecdsa-p521', 'rsa-2048']) {
      await t.ok(`keys/${type}`, { type });
      const { public_key } = (await t.get(`keys/${type}`)).keys['1'];
      const publicKey =
        type === 'ed25519'
          ? createPublicKey({
              key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(public_key, 'base64').toString('base64url') },
              format: 'jwk',
            })
          : createPublicKey(public_key);
      const signed = await t.ok(`sign/${type}`, { input: b64(message), hash_algorithm: 'sha2-384' });
      assert.match(signed.signature, /^vault:v1:/);
      const hash = type === 'ed25519' ? null : 'sha384';
      const key = type.startsWith('rsa')
        ? { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }
        : publicKey;
      assert.ok(verify(hash, message, key, signatureOf(signed.signature)), `${type} independent verify`);
      const checked = await t.ok(`verify/${type}`, {
        input: b64(message),
        signature: signed.signature,
        hash_algorithm: 'sha2-384',
      });
      assert.equal(checked.valid, true);
      const other = await t.ok(`verify/${type}`, {
        input: b64('other'),
        signature: signed.signature,
        hash_algorithm: 'sha2-384',
      });
      assert.equal(other.valid, false);
      if (type.startsWith('ecdsa')) {
        const jws = await t.ok(`sign/${type}/sha2-256`, { input: b64(message), marshaling_algorithm: 'jws' });
        const raw = signatureOf(jws.signature, 'base64url');
        assert.ok(verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw));
        const ok = await t.ok(`verify/${type}/sha2-256`, {
          input: b64(message),
          signature: jws.signature,
          marshaling_algorithm: 'jws',
        });
        assert.equal(ok.valid, true);
      }
    }
    const pkcs = await t.ok('sign/rsa-2048', { input: b64(message), signature_algorithm: 'pkcs1v15' });
    const rsaPublic = createPublicKey((await t.get('keys/rsa-2048')).keys['1'].public_key);
    assert.ok(
      verify('sha256', message, { key: rsaPublic, padding: constants.RSA_PKCS1_PADDING }, signatureOf(pkcs.signature)),
    );
    for (const salt_length of ['auto', 'hash', '20']) {
      const s = await t.ok('sign/rsa-2048', { input: b64(message), salt_length });
      assert.equal(
        (await t.ok('verify/rsa-2048', { input: b64(message), signature: s.signature, salt_length })).valid,
        true,
      );
    }
    await assert.rejects(t.write('sign/rsa-2048', { input: b64(message), salt_length: '-2' }), InvalidRequestError);
  });

  it('signs with the requested version, refuses versions below min_decryption_version, and signs batches', async () => {
    const t = await transitForTest();
    await t.ok('keys/ed', { type: 'ed25519' });
    const v1 = await t.ok('sign/ed', { input: b64(message) });
    await t.ok('keys/ed/rotate');
    const v2 = await t.ok('sign/ed', { input: b64(message) });
    assert.equal(v2.key_version, 2);
    assert.equal((await t.ok('verify/ed', { input: b64(message), signature: v1.signature })).valid, true);
    await t.ok('keys/ed/config', { min_decryption_version: 2 });
    await assert.rejects(t.write('verify/ed', { input: b64(message), signature: v1.signature }), InvalidRequestError);
    const batch = await t.ok('sign/ed', { batch_input: [{ input: b64('a'), reference: 'r1' }, { input: b64('b') }] });
    assert.equal(batch.batch_results[0].reference, 'r1');
    const verified = await t.ok('verify/ed', {
      batch_input: batch.batch_results.map((r: { signature: string }, i: number) => ({
        input: b64(i ? 'b' : 'a'),
        signature: r.signature,
      })),
    });
    assert.deepEqual(
      verified.batch_results.map((r: { valid: boolean }) => r.valid),
      [true, true],
    );
    await t.ok('keys/aes');
    await assert.rejects(t.write('sign/aes', { input: b64('x') }), InvalidRequestError);
  });

  it('makes HMACs with the version’s HMAC key (exported as hmac-key) and verifies them', async () => {
    const t = await transitForTest();
    await t.ok('keys/mac', { type: 'hmac', key_size: 64, exportable: true });
    const { hmac } = await t.ok('hmac/mac/sha2-512', { input: b64(message) });
    const key = Buffer.from((await t.get('export/hmac-key/mac')).keys['1'], 'base64');
    assert.equal(key.length, 64);
    assert.equal(hmac, `vault:v1:${createHmac('sha512', key).update(message).digest('base64')}`);
    assert.equal((await t.ok('verify/mac/sha2-512', { input: b64(message), hmac })).valid, true);
    assert.equal((await t.ok('verify/mac', { input: b64(message), hmac })).valid, false, 'another hash');
    await t.ok('keys/aes', { exportable: true });
    const aesHmac = await t.ok('hmac/aes', { input: b64(message) });
    const aesKey = Buffer.from((await t.get('export/hmac-key/aes')).keys['1'], 'base64');
    assert.equal(aesHmac.hmac, `vault:v1:${createHmac('sha256', aesKey).update(message).digest('base64')}`);
  });

  it('exports signing and public keys in the established encodings', async () => {
    const t = await transitForTest();
    await t.ok('keys/ec', { type: 'ecdsa-p256', exportable: true });
    await t.ok('keys/ed', { type: 'ed25519', exportable: true });
    await t.ok('keys/closed', { type: 'ecdsa-p256' });
    assert.match((await t.get('export/signing-key/ec')).keys['1'], /BEGIN EC PRIVATE KEY/);
    assert.match((await t.get('export/public-key/closed/latest')).keys['1'], /BEGIN PUBLIC KEY/);
    await assert.rejects(t.read('export/signing-key/closed'), InvalidRequestError);
    const ed = Buffer.from((await t.get('export/signing-key/ed')).keys['1'], 'base64');
    assert.equal(ed.length, 64, 'seed ‖ public key');
    const privateKey = createPrivateKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        d: ed.subarray(0, 32).toString('base64url'),
        x: ed.subarray(32).toString('base64url'),
      },
      format: 'jwk',
    });
    const { signature } = await t.ok('sign/ed', { input: b64(message) });
    assert.ok(verify(null, message, createPublicKey(privateKey), signatureOf(signature)));
  });
});
