import assert from 'node:assert/strict';
import { constants, createDecipheriv, createHmac, createPrivateKey, hkdfSync, privateDecrypt } from 'node:crypto';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { b64, transitForTest } from './testing.js';

// Issue 32: encrypt/decrypt/rewrap/datakey as established, and ciphertexts byte-compatible with the
// established server: decrypted here with Node's crypto and the exported key, by the established algorithm.

/** The established algorithm: payload = nonce(12) ‖ ciphertext ‖ tag(16), AES-GCM under the raw key. */
function openEstablished(cipher: 'aes-256-gcm' | 'chacha20-poly1305', key: Buffer, text: string, aad?: Buffer) {
  const payload = Buffer.from(text.split(':')[2] ?? '', 'base64');
  const decipher = createDecipheriv(cipher as 'aes-256-gcm', key, payload.subarray(0, 12), { authTagLength: 16 });
  decipher.setAuthTag(payload.subarray(payload.length - 16));
  if (aad) decipher.setAAD(aad, { plaintextLength: payload.length - 28 });
  return Buffer.concat([decipher.update(payload.subarray(12, payload.length - 16)), decipher.final()]).toString();
}

describe('transit encrypt/decrypt', () => {
  it('makes ciphertexts the established algorithm opens with the exported key (AES-GCM, ChaCha20, AAD)', async () => {
    const t = await transitForTest();
    for (const [type, cipher] of [
      ['aes256-gcm96', 'aes-256-gcm'],
      ['chacha20-poly1305', 'chacha20-poly1305'],
    ] as const) {
      await t.ok(`keys/${type}`, { type, exportable: true });
      const key = Buffer.from((await t.get(`export/encryption-key/${type}/1`)).keys['1'], 'base64');
      const { ciphertext } = await t.ok(`encrypt/${type}`, { plaintext: b64('attack at dawn') });
      assert.match(ciphertext, /^vault:v1:/);
      assert.equal(openEstablished(cipher, key, ciphertext), 'attack at dawn');
      const aad = Buffer.from('header');
      const bound = await t.ok(`encrypt/${type}`, { plaintext: b64('bound'), associated_data: b64(aad) });
      assert.equal(openEstablished(cipher, key, bound.ciphertext, aad), 'bound');
      await assert.rejects(t.write(`decrypt/${type}`, { ciphertext: bound.ciphertext }), InvalidRequestError);
    }
  });

  it('derives a key per context with HKDF-SHA256, and convergent keys give equal ciphertexts for equal input', async () => {
    const t = await transitForTest();
    await t.ok('keys/derived', { derived: true, exportable: true });
    const root = Buffer.from((await t.get('export/encryption-key/derived')).keys['1'], 'base64');
    const context = Buffer.from('tenant-1');
    const { ciphertext } = await t.ok('encrypt/derived', { plaintext: b64('per tenant'), context: b64(context) });
    const derived = Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), context, 32));
    assert.equal(openEstablished('aes-256-gcm', derived, ciphertext), 'per tenant');
    await assert.rejects(t.write('encrypt/derived', { plaintext: b64('x') }), InvalidRequestError, 'context needed');
    await assert.rejects(
      t.write('decrypt/derived', { ciphertext, context: b64('tenant-2') }),
      InvalidRequestError,
      'another context opens nothing',
    );

    await t.ok('keys/conv', { derived: true, convergent_encryption: true, exportable: true });
    const one = await t.ok('encrypt/conv', { plaintext: b64('same'), context: b64(context) });
    const two = await t.ok('encrypt/conv', { plaintext: b64('same'), context: b64(context) });
    assert.equal(one.ciphertext, two.ciphertext);
    const convRoot = Buffer.from((await t.get('export/encryption-key/conv')).keys['1'], 'base64');
    const keys = Buffer.from(hkdfSync('sha256', convRoot, Buffer.alloc(0), context, 64));
    const nonce = createHmac('sha256', keys.subarray(32)).update('same').digest().subarray(0, 12);
    assert.deepEqual(
      Buffer.from(one.ciphertext.split(':')[2], 'base64').subarray(0, 12),
      nonce,
      'nonce = HMAC(plaintext)',
    );
    assert.equal(openEstablished('aes-256-gcm', keys.subarray(0, 32), one.ciphertext), 'same');
  });

  it('encrypts and decrypts batches, keeping references and reporting bad items with 400', async () => {
    const t = await transitForTest();
    await t.ok('keys/app');
    const sealed = await t.write('encrypt/app', {
      batch_input: [
        { plaintext: b64('a'), reference: 'one' },
        { plaintext: b64('b'), reference: 'two' },
      ],
    });
    const results = sealed?.data?.batch_results as { ciphertext: string; reference: string }[];
    assert.deepEqual(
      results.map((r) => r.reference),
      ['one', 'two'],
    );
    const opened = await t.write('decrypt/app', {
      batch_input: [...results.map((r) => ({ ciphertext: r.ciphertext })), { ciphertext: 'vault:v1:AAAA' }],
    });
    assert.equal(opened?.status, 400);
    const out = opened?.data?.batch_results as { plaintext?: string; error?: string }[];
    assert.deepEqual(
      out.slice(0, 2).map((r) => Buffer.from(r.plaintext ?? '', 'base64').toString()),
      ['a', 'b'],
    );
    assert.equal(typeof out[2]?.error, 'string');
  });

  it('rewraps to the latest version, encrypts with key_version, and makes data keys', async () => {
    const t = await transitForTest();
    await t.ok('keys/app');
    const v1 = await t.ok('encrypt/app', { plaintext: b64('old') });
    await t.ok('keys/app/rotate');
    const rewrapped = await t.ok('rewrap/app', { ciphertext: v1.ciphertext });
    assert.equal(rewrapped.key_version, 2);
    const back = await t.ok('decrypt/app', { ciphertext: rewrapped.ciphertext });
    assert.equal(Buffer.from(back.plaintext, 'base64').toString(), 'old');
    assert.match((await t.ok('encrypt/app', { plaintext: b64('x'), key_version: 1 })).ciphertext, /^vault:v1:/);

    const dk = await t.ok('datakey/plaintext/app', { bits: 512 });
    assert.equal(Buffer.from(dk.plaintext, 'base64').length, 64);
    assert.equal((await t.ok('decrypt/app', { ciphertext: dk.ciphertext })).plaintext, dk.plaintext);
    const wrapped = await t.ok('datakey/wrapped/app');
    assert.equal(wrapped.plaintext, undefined);
    await assert.rejects(t.write('datakey/plaintext/app', { bits: 100 }), InvalidRequestError);
  });

  it('encrypts with RSA keys by OAEP (SHA-256), which the exported private key opens', async () => {
    const t = await transitForTest();
    await t.ok('keys/rsa', { type: 'rsa-2048', exportable: true });
    const { ciphertext } = await t.ok('encrypt/rsa', { plaintext: b64('to rsa') });
    const pem = (await t.get('export/encryption-key/rsa')).keys['1'];
    assert.match(pem, /BEGIN RSA PRIVATE KEY/);
    const opened = privateDecrypt(
      { key: createPrivateKey(pem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(ciphertext.split(':')[2], 'base64'),
    );
    assert.equal(opened.toString(), 'to rsa');
    assert.equal(Buffer.from((await t.ok('decrypt/rsa', { ciphertext })).plaintext, 'base64').toString(), 'to rsa');
    await t.ok('keys/ed', { type: 'ed25519' });
    await assert.rejects(t.write('encrypt/ed', { plaintext: b64('x') }), InvalidRequestError);
  });
});
