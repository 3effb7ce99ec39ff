import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { describe, it } from 'node:test';
import { ed25519ctx, ed25519ph } from '@noble/curves/ed25519.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { b64, transitForTest, wrapForImport } from './testing.js';

// Issue 32: Ed25519ph (prehashed=true with the SHA-512 digest) and Ed25519ctx (signature_context)
// on ed25519 keys, pinned by RFC 8032's test vectors (§7.2, §7.3) and checked by independent
// implementations: @noble/curves' own ed25519ph/ed25519ctx (which hash and frame the message
// themselves) and Node's crypto (OpenSSL's Ed25519ctx).

const hex = (text: string) => Buffer.from(text, 'hex');
const sha512 = (data: Buffer) => createHash('sha512').update(data).digest();
const signatureOf = (text: string) => Buffer.from(text.split(':')[2] ?? '', 'base64');
/** An Ed25519 seed as PKCS#8 DER (RFC 8410). */
const pkcs8 = (seed: string) => Buffer.concat([hex('302e020100300506032b657004220420'), hex(seed)]);

const PH = {
  seed: '833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42',
  message: hex('616263'),
  signature:
    '98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae4131f85042463c2a355a2003d062adf5aaa10b8c61e636062aaad11c2a26083406',
};
const CTX = {
  seed: '0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6',
  message: hex('f726936d19c800494e3fdaff20b276a8'),
  signatures: new Map([
    [
      'foo',
      '55a4cc2f70a54e04288c5f4cd1e45a7bb520b36292911876cada7323198dd87a8b36950b95130022907a7fb7c4e9b2d5f6cca685a587b4b21f4b888e4e7edb0d',
    ],
    [
      'bar',
      'fc60d5872fc46b3aa69f8b5b4351d5808f92bcc044606db097abab6dbcb1aee3216c48e8b3b66431b5b186d1d28f8ee15a5ca2df6668346291c2043d4eb3e90d',
    ],
  ]),
};

async function withImported(seeds: Record<string, string>) {
  const t = await transitForTest();
  const { public_key } = await t.get('wrapping_key');
  for (const [name, seed] of Object.entries(seeds))
    await t.ok(`keys/${name}/import`, { ciphertext: wrapForImport(public_key, pkcs8(seed)), type: 'ed25519' });
  return t;
}

describe('transit ed25519 variants', () => {
  it("gives RFC 8032's Ed25519ph and Ed25519ctx signatures for its keys", async () => {
    const t = await withImported({ ph: PH.seed, ctx: CTX.seed });
    const ph = { input: b64(sha512(PH.message)), prehashed: true, hash_algorithm: 'sha2-512' };
    const phSigned = await t.ok('sign/ph', ph);
    assert.equal(signatureOf(phSigned.signature).toString('hex'), PH.signature);
    assert.equal((await t.ok('verify/ph', { ...ph, signature: phSigned.signature })).valid, true);
    // The same signature is no plain Ed25519 signature of the digest, nor one with a context.
    assert.equal((await t.ok('verify/ph', { input: ph.input, signature: phSigned.signature })).valid, false);
    const withContext = { ...ph, signature: phSigned.signature, signature_context: b64('a') };
    assert.equal((await t.ok('verify/ph', withContext)).valid, false);

    for (const [context, want] of CTX.signatures) {
      const body = { input: b64(CTX.message), signature_context: b64(context) };
      const signed = await t.ok('sign/ctx', body);
      assert.equal(signatureOf(signed.signature).toString('hex'), want, context);
      assert.equal((await t.ok('verify/ctx', { ...body, signature: signed.signature })).valid, true);
      assert.equal((await t.ok('verify/ctx', { input: body.input, signature: signed.signature })).valid, false);
    }
  });

  it('signs what other implementations verify, in batches too, and verifies what they sign', async () => {
    const t = await transitForTest();
    await t.ok('keys/ed', { type: 'ed25519' });
    // An ed25519 key's read answers the raw public key in base64.
    const publicRaw = Buffer.from((await t.get('keys/ed')).keys['1'].public_key, 'base64');
    const message = Buffer.from('a message signed in two ways');
    const context = Buffer.from('ward test');

    const ph = await t.ok('sign/ed', {
      input: b64(sha512(message)),
      prehashed: true,
      hash_algorithm: 'sha2-512',
      signature_context: b64(context),
    });
    assert.ok(ed25519ph.verify(signatureOf(ph.signature), message, publicRaw, { context }));
    assert.ok(!ed25519ph.verify(signatureOf(ph.signature), message, publicRaw));

    const ctx = await t.ok('sign/ed', { input: b64(message), signature_context: b64(context) });
    assert.ok(ed25519ctx.verify(signatureOf(ctx.signature), message, publicRaw, { context }));
    const nodePublic = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: publicRaw.toString('base64url') },
      format: 'jwk',
    });
    assert.ok(verify(null, message, { key: nodePublic, context }, signatureOf(ctx.signature)));

    // Batch items carry their own signature_context.
    const batch = await t.ok('sign/ed', {
      batch_input: [
        { input: b64(message), signature_context: b64('one') },
        { input: b64(message), signature_context: b64('two') },
        { input: b64(message) },
      ],
    });
    const [one, two, plain] = batch.batch_results as Array<{ signature: string }>;
    assert.ok(
      ed25519ctx.verify(signatureOf(one?.signature ?? ''), message, publicRaw, { context: Buffer.from('one') }),
    );
    assert.ok(
      ed25519ctx.verify(signatureOf(two?.signature ?? ''), message, publicRaw, { context: Buffer.from('two') }),
    );
    assert.ok(verify(null, message, nodePublic, signatureOf(plain?.signature ?? '')));

    // Signatures made elsewhere verify here.
    const { secretKey, publicKey } = ed25519ph.keygen();
    const signedElsewhere = ed25519ph.sign(message, secretKey, { context });
    const t2 = await transitForTest();
    const { public_key: wrapping } = await t2.get('wrapping_key');
    await t2.ok('keys/outside/import', {
      ciphertext: wrapForImport(wrapping, pkcs8(Buffer.from(secretKey).toString('hex'))),
      type: 'ed25519',
    });
    const verdict = await t2.ok('verify/outside', {
      input: b64(sha512(message)),
      prehashed: true,
      signature_context: b64(context),
      signature: `vault:v1:${Buffer.from(signedElsewhere).toString('base64')}`,
    });
    assert.equal(verdict.valid, true);
    assert.equal(Buffer.from(ed25519ph.getPublicKey(secretKey)).equals(Buffer.from(publicKey)), true);
  });

  it('refuses what the variants cannot take', async () => {
    const t = await transitForTest();
    await t.ok('keys/ed', { type: 'ed25519' });
    await t.ok('keys/ec', { type: 'ecdsa-p256' });
    const refused = async (path: string, body: Record<string, unknown>) =>
      assert.rejects(t.write(path, body), InvalidRequestError, JSON.stringify(body));
    const digest = b64(sha512(Buffer.from('x')));
    await refused('sign/ed', { input: digest, prehashed: true, hash_algorithm: 'sha2-256' });
    await refused('sign/ed', { input: b64(Buffer.alloc(32)), prehashed: true });
    await refused('sign/ed', { input: b64('x'), signature_context: b64(Buffer.alloc(256)) });
    await refused('sign/ed', { input: b64('x'), signature_context: 'not base64!' });
    await refused('sign/ec', { input: b64('x'), signature_context: b64('ctx') });
    // 255 bytes is the longest context; the hash may be left out with prehashed (SHA-512 is implied).
    await t.ok('sign/ed', { input: b64('x'), signature_context: b64(Buffer.alloc(255, 1)) });
    await t.ok('sign/ed', { input: digest, prehashed: true });
  });
});
