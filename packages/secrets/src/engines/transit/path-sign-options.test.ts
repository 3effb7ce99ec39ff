import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  constants,
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  verify,
} from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { b64, transitForTest } from './testing.js';

// Issue 32: prehashed input, derived ed25519 keys, public-key-only imports and
// partial_failure_response_code, each checked by an independent implementation (Node's crypto,
// the openssl CLI) rather than by the engine itself.

const message = Buffer.from('sign the digest of me');
const signatureOf = (text: string, encoding: BufferEncoding = 'base64') =>
  Buffer.from(text.split(':')[2] ?? '', encoding);
describe('transit sign options', () => {
  it('signs a digest given with prehashed=true (ECDSA, RSA PSS and PKCS#1 v1.5 with SHA-1, SHA-2 and SHA-3) as signing the message would', async () => {
    const t = await transitForTest();
    const dir = mkdtempSync(join(tmpdir(), 'ward-prehashed-'));
    try {
      for (const [type, hash, nodeHash] of [
        ['ecdsa-p256', 'sha2-256', 'sha256'],
        ['ecdsa-p384', 'sha2-384', 'sha384'],
        ['ecdsa-p521', 'sha2-512', 'sha512'],
        ['rsa-2048', 'sha2-256', 'sha256'],
        ['rsa-3072', 'sha2-384', 'sha384'],
        ['rsa-2048', 'sha2-224', 'sha224'],
        ['rsa-2048', 'sha3-256', 'sha3-256'],
        ['rsa-2048', 'sha3-512', 'sha3-512'],
      ] as const) {
        await t.ok(`keys/${type}`, { type });
        const pem = (await t.get(`keys/${type}`)).keys['1'].public_key;
        const publicKey = createPublicKey(pem);
        const digest = createHash(nodeHash).update(message).digest();
        const schemes = type.startsWith('rsa') ? ['pss', 'pkcs1v15'] : ['pss'];
        for (const scheme of schemes) {
          const body = { input: b64(digest), prehashed: true, hash_algorithm: hash, signature_algorithm: scheme };
          const { signature } = await t.ok(`sign/${type}`, body);
          const key =
            scheme === 'pss' && type.startsWith('rsa')
              ? { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }
              : publicKey;
          assert.ok(verify(nodeHash, message, key, signatureOf(signature)), `${type} ${scheme}: Node verifies`);
          // openssl checks the signature over the digest itself, as a caller with only the digest would.
          writeFileSync(join(dir, 'pub.pem'), pem);
          writeFileSync(join(dir, 'digest'), digest);
          writeFileSync(join(dir, 'sig'), signatureOf(signature));
          const pkeyopt = type.startsWith('rsa')
            ? ['-pkeyopt', `rsa_padding_mode:${scheme === 'pss' ? 'pss' : 'pkcs1'}`]
            : [];
          const out = execFileSync('openssl', [
            'pkeyutl',
            '-verify',
            '-pubin',
            '-inkey',
            join(dir, 'pub.pem'),
            '-in',
            join(dir, 'digest'),
            '-sigfile',
            join(dir, 'sig'),
            '-pkeyopt',
            `digest:${nodeHash}`,
            ...pkeyopt,
          ]).toString();
          assert.match(out, /Signature Verified Successfully/);
          assert.equal((await t.ok(`verify/${type}`, { ...body, signature })).valid, true);
          const wrong = createHash(nodeHash).update('other').digest();
          assert.equal((await t.ok(`verify/${type}`, { ...body, input: b64(wrong), signature })).valid, false);
        }
        // A signature Ward makes of the message verifies as prehashed with the message's digest.
        const plain = await t.ok(`sign/${type}/${hash}`, { input: b64(message) });
        const asDigest = { input: b64(digest), prehashed: true, hash_algorithm: hash, signature: plain.signature };
        assert.equal((await t.ok(`verify/${type}`, asDigest)).valid, true);
      }
      const jws = await t.ok('sign/ecdsa-p256', {
        input: b64(createHash('sha256').update(message).digest()),
        prehashed: true,
        marshaling_algorithm: 'jws',
      });
      const p256 = createPublicKey((await t.get('keys/ecdsa-p256')).keys['1'].public_key);
      assert.ok(
        verify('sha256', message, { key: p256, dsaEncoding: 'ieee-p1363' }, signatureOf(jws.signature, 'base64url')),
      );
      await t.ok('keys/ed', { type: 'ed25519' });
      // Prehashed ed25519 is Ed25519ph over a SHA-512 digest (path-sign-ed25519-variants.test.ts).
      await assert.rejects(
        t.write('sign/ed', { input: b64('x'.repeat(32)), prehashed: true }),
        /64-byte SHA-512 digest/,
      );
      await assert.rejects(
        t.write('sign/rsa-2048', { input: b64('short'), prehashed: true }),
        InvalidRequestError,
        'an RSA digest of the wrong length is refused',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('derives an ed25519 key per context from the 64 stored bytes by HKDF-SHA256, as established', async () => {
    const t = await transitForTest();
    const created = await t.ok('keys/tenant', { type: 'ed25519', derived: true, exportable: true });
    assert.equal(created.derived, true);
    assert.equal(created.keys['1'].public_key, '', 'no public key without a context');
    const context = Buffer.from('tenant-7');
    const root = Buffer.from((await t.get('export/signing-key/tenant')).keys['1'], 'base64');
    assert.equal(root.length, 64);
    // Independently: the seed is HKDF-SHA256(root, no salt, context); Node's ed25519 makes the key.
    const seed = Buffer.from(hkdfSync('sha256', root, Buffer.alloc(0), context, 32));
    const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
    const expected = createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }));
    const expectedRaw = Buffer.from(expected.export({ format: 'jwk' }).x ?? '', 'base64url').toString('base64');
    const signed = await t.ok('sign/tenant', { input: b64(message), context: b64(context) });
    assert.equal(signed.publickey, expectedRaw);
    assert.ok(verify(null, message, expected, signatureOf(signed.signature)));
    // biome-ignore lint/suspicious/noExplicitAny: reads the JSON shape
    const viewed = (await t.read('keys/tenant', { context: b64(context) }))?.data as any;
    assert.equal(viewed?.keys['1'].public_key, expectedRaw, 'the read with a context shows its public key');
    assert.equal(
      (await t.ok('verify/tenant', { input: b64(message), context: b64(context), signature: signed.signature })).valid,
      true,
    );
    const other = await t.ok('verify/tenant', {
      input: b64(message),
      context: b64('tenant-8'),
      signature: signed.signature,
    });
    assert.equal(other.valid, false, 'another context is another key');
    await assert.rejects(t.write('sign/tenant', { input: b64(message) }), /missing 'context'/);
    const batch = await t.ok('sign/tenant', {
      batch_input: [
        { input: b64(message), context: b64(context) },
        { input: b64(message), context: b64('tenant-8') },
      ],
    });
    assert.equal(batch.batch_results[0].publickey, expectedRaw);
    assert.notEqual(batch.batch_results[1].publickey, expectedRaw);
    await assert.rejects(
      t.write('keys/conv', { type: 'ed25519', derived: true, convergent_encryption: true }),
      InvalidRequestError,
    );
  });

  it('imports a public key alone: it verifies (and RSA encrypts) but refuses to sign', async () => {
    const t = await transitForTest();
    for (const [type, pair] of [
      ['ecdsa-p256', generateKeyPairSync('ec', { namedCurve: 'P-256' })],
      ['rsa-2048', generateKeyPairSync('rsa', { modulusLength: 2048 })],
      ['ed25519', generateKeyPairSync('ed25519')],
    ] as const) {
      const publicPem = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
      const imported = await t.ok(`keys/${type}/import`, { type, public_key: publicPem });
      assert.equal(imported.imported_key, true);
      const hash = type === 'ed25519' ? null : 'sha256';
      const key =
        type === 'rsa-2048' ? { key: pair.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING } : pair.privateKey;
      const signature = `vault:v1:${b64((await import('node:crypto')).sign(hash, message, key))}`;
      assert.equal((await t.ok(`verify/${type}`, { input: b64(message), signature })).valid, true, type);
      assert.equal((await t.ok(`verify/${type}`, { input: b64('x'), signature })).valid, false, type);
      await assert.rejects(t.write(`sign/${type}`, { input: b64(message) }), /does not contain a private part/);
      const shown = (await t.get(`export/public-key/${type}`)).keys['1'];
      assert.ok(shown.length > 0);
    }
    const { ciphertext } = await t.ok('encrypt/rsa-2048', { plaintext: b64('for the key holder') });
    assert.match(ciphertext, /^vault:v1:/);
    const refusals: [string, Record<string, unknown>][] = [
      ['keys/aes/import', { type: 'aes256-gcm96', public_key: 'x' }],
      [
        'keys/bad/import',
        {
          type: 'ecdsa-p384',
          public_key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
            format: 'pem',
            type: 'spki',
          }),
        },
      ],
      ['keys/none/import', { type: 'ecdsa-p256' }],
      ['keys/both/import', { type: 'ecdsa-p256', public_key: 'x', ciphertext: 'eA==' }],
    ];
    for (const [path, body] of refusals) await assert.rejects(t.write(path, body), InvalidRequestError, path);
  });

  it('answers partial_failure_response_code when some batch items fail, 400 when all do', async () => {
    const t = await transitForTest();
    await t.ok('keys/k', {});
    const mixed = [{ plaintext: b64('fine') }, { plaintext: 'not base64!' }];
    assert.equal((await t.write('encrypt/k', { batch_input: mixed }))?.status, 400);
    const partial = await t.write('encrypt/k', { batch_input: mixed, partial_failure_response_code: 207 });
    assert.equal(partial?.status, 207);
    // biome-ignore lint/suspicious/noExplicitAny: reads the JSON shape
    const results = partial?.data?.batch_results as any[];
    assert.match(results[0].ciphertext, /^vault:v1:/);
    assert.ok(results[1].error);
    const allBad = [{ plaintext: 'bad!' }, { plaintext: 'worse!' }];
    assert.equal(
      (await t.write('encrypt/k', { batch_input: allBad, partial_failure_response_code: 207 }))?.status,
      400,
    );
    const outOfRange = await t.write('encrypt/k', { batch_input: mixed, partial_failure_response_code: 700 });
    assert.equal(outOfRange?.status, 400);
    assert.match(outOfRange?.warnings?.[0] ?? '', /partial_failure_response_code/);
    const good = results[0].ciphertext;
    const decrypted = await t.write('decrypt/k', {
      batch_input: [{ ciphertext: good }, { ciphertext: 'vault:v1:AAAA' }],
      partial_failure_response_code: 299,
    });
    assert.equal(decrypted?.status, 299);
    await t.ok('keys/ec', { type: 'ecdsa-p256' });
    const signed = await t.write('sign/ec', {
      batch_input: [{ input: b64('a') }, { input: '!!' }],
      partial_failure_response_code: 206,
    });
    assert.equal(signed?.status, 206);
    const hmac = await t.write('hmac/k', {
      batch_input: [{ input: b64('a') }, { input: '!!' }],
      partial_failure_response_code: 206,
    });
    assert.equal(hmac?.status, 206);
  });
});
