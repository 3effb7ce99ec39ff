import assert from 'node:assert/strict';
import { createDecipheriv, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expectSuccess, runWard } from '../src/cli/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// `ward transit import|import-version` as established: the material wrapped with an ephemeral
// AES key (AES-KWP) and that with the mount's wrapping_key (RSA-OAEP SHA-256), through bin/ward
// against bin/ward server -dev; what the server then does with the key shows the material arrived.

/** Opens a transit AES-256-GCM ciphertext (`vault:vN:` + nonce ‖ ciphertext ‖ tag) with `material`. */
function openCiphertext(ciphertext: string, material: Buffer): string {
  const payload = Buffer.from(ciphertext.split(':')[2] ?? '', 'base64');
  const decipher = createDecipheriv('aes-256-gcm', material, payload.subarray(0, 12));
  decipher.setAuthTag(payload.subarray(payload.length - 16));
  return Buffer.concat([decipher.update(payload.subarray(12, payload.length - 16)), decipher.final()]).toString();
}

describe('ward transit import / import-version (bin/ward against bin/ward server)', () => {
  let dev: DevWard;
  const ward = (...args: string[]) => runWard(args, dev.env);
  const ok = async (...args: string[]) => expectSuccess(await ward(...args), args);
  const encrypt = async (key: string) =>
    (
      await ok(
        'write',
        '-field=ciphertext',
        `transit/encrypt/${key}`,
        `plaintext=${Buffer.from('hi').toString('base64')}`,
      )
    ).trim();

  before(async () => {
    dev = await startDevWard('root');
    await ok('secrets', 'enable', 'transit');
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('imports an AES key from @file, printing the steps; its ciphertexts open with the material', async () => {
    const material = randomBytes(32);
    const file = join(dev.env.HOME ?? '', 'aes.b64');
    await writeFile(file, `${material.toString('base64')}\n`);
    const out = await ok('transit', 'import', 'transit/keys/byok', `@${file}`, 'exportable=true');
    assert.deepEqual(out.trimEnd().split('\n'), [
      'Retrieving wrapping key.',
      'Wrapping source key with ephemeral key.',
      'Encrypting ephemeral key with wrapping key.',
      'Submitting wrapped key.',
      'Success!',
    ]);
    const key = JSON.parse(await ok('read', '-format=json', 'transit/keys/byok')).data;
    assert.equal(key.imported_key, true);
    assert.equal(key.exportable, true, 'the K=V pairs go with the import');
    assert.equal(openCiphertext(await encrypt('byok'), material), 'hi');

    const second = randomBytes(32);
    await ok('transit', 'import-version', 'transit/keys/byok', second.toString('base64'));
    const latest = await encrypt('byok');
    assert.match(latest, /^vault:v2:/);
    assert.equal(openCiphertext(latest, second), 'hi');
  });

  it('imports an RSA key (PKCS#8 DER) with type=…: the key serves its public half', async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const der = pair.privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
    await ok('transit', 'import', 'transit/keys/signer', der, 'type=rsa-2048');
    const key = JSON.parse(await ok('read', '-format=json', 'transit/keys/signer')).data;
    assert.equal(key.type, 'rsa-2048');
    const served = createPublicKey(key.keys['1'].public_key).export({ format: 'der', type: 'spki' });
    assert.deepEqual(served, pair.publicKey.export({ format: 'der', type: 'spki' }));
  });

  it('refuses a bad path or material before sending, and shows the server refusal', async () => {
    const badPath = await ward('transit', 'import', 'transit/byok', randomBytes(32).toString('base64'));
    assert.equal(badPath.code, 2);
    assert.match(badPath.stderr, /^Error: expected the transit path and key name as MOUNT\/keys\/NAME/);
    const badMaterial = await ward('transit', 'import', 'transit/keys/x', 'not base64!');
    assert.equal(badMaterial.code, 2);
    assert.match(badMaterial.stderr, /must be base64/);
    const missing = await ward('transit', 'import', 'transit/keys/x');
    assert.equal(missing.code, 2);
    const exists = await ward('transit', 'import', 'transit/keys/byok', randomBytes(32).toString('base64'));
    assert.equal(exists.code, 2);
    assert.match(exists.stderr, /Code: 400/);
    const notImported = await ok('write', '-f', 'transit/keys/native');
    assert.ok(notImported);
    const version = await ward('transit', 'import-version', 'transit/keys/native', randomBytes(32).toString('base64'));
    assert.equal(version.code, 2);
    assert.match(version.stderr, /import_version can only be used on imported keys/);
  });
});
