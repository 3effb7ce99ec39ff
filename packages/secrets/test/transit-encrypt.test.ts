import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 18: hvac's v1 test_write_with_response creates a transit key with no body and round-trips
// "test" through encrypt/decrypt. The engine holds symmetric keys itself, versioned by rotation.

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('transit encryption with keys the engine holds', () => {
  let t: TestServer;
  const call = (method: string, path: string, body?: unknown) => t.request(method, path, { body });
  const encrypt = async (key: string, text: string) =>
    (await t.ok('POST', `transit/encrypt/${key}`, { plaintext: b64(text) })).data;
  const decrypt = async (key: string, ciphertext: string) =>
    Buffer.from((await t.ok('POST', `transit/decrypt/${key}`, { ciphertext })).data.plaintext, 'base64').toString();

  before(async () => {
    t = await startTestServer();
    await t.ok('POST', 'sys/mounts/transit', { type: 'transit' });
  });
  after(() => t.stop());

  it('creates an aes256-gcm96 key with no body and round-trips data; the read shows no key material', async () => {
    await t.ok('POST', 'transit/keys/app');
    const key = (await t.ok('GET', 'transit/keys/app')).data;
    assert.equal(key.type, 'aes256-gcm96');
    assert.equal(key.latest_version, 1);
    assert.deepEqual(Object.keys(key.keys), ['1']);
    assert.equal(typeof key.keys['1'], 'number', 'a creation time, not the key');
    assert.deepEqual([key.supports_encryption, key.supports_signing, key.deletion_allowed], [true, false, false]);

    const sealed = await encrypt('app', 'attack at dawn');
    assert.equal(sealed.key_version, 1);
    assert.match(sealed.ciphertext, /^vault:v1:/);
    const payload = Buffer.from(sealed.ciphertext.slice('vault:v1:'.length), 'base64');
    assert.equal(payload.length, 12 + 'attack at dawn'.length + 16, 'nonce, ciphertext, tag');
    assert.notEqual((await encrypt('app', 'attack at dawn')).ciphertext, sealed.ciphertext, 'a fresh nonce each time');
    assert.equal(await decrypt('app', sealed.ciphertext), 'attack at dawn');
    // hvac sends "test" as is: it is valid base64, and comes back the same.
    const hvacStyle = await t.ok('POST', 'transit/encrypt/app', { plaintext: 'test' });
    const back = await t.ok('POST', 'transit/decrypt/app', { ciphertext: hvacStyle.data.ciphertext });
    assert.equal(back.data.plaintext, 'test');
  });

  it('refuses a tampered ciphertext, another key’s ciphertext, bad base64 and a missing key with 400', async () => {
    await t.ok('POST', 'transit/keys/other', { type: 'chacha20-poly1305' });
    const sealed = (await encrypt('app', 'secret')).ciphertext as string;
    const payload = Buffer.from(sealed.slice('vault:v1:'.length), 'base64');
    payload[14] = (payload[14] ?? 0) ^ 1;
    for (const [key, ciphertext] of [
      ['app', `vault:v1:${payload.toString('base64')}`],
      ['other', sealed],
      ['app', 'vault:v1:AAAA'],
      ['app', 'not a ciphertext'],
    ]) {
      const r = await call('POST', `transit/decrypt/${key}`, { ciphertext });
      assert.equal(r.status, 400, `${key} ${ciphertext}`);
    }
    assert.equal((await call('POST', 'transit/encrypt/app', { plaintext: 'not base64!' })).status, 400);
    assert.deepEqual((await call('POST', 'transit/decrypt/none', { ciphertext: sealed })).body.errors, [
      'encryption key not found',
    ]);
    const other = await encrypt('other', 'via chacha');
    assert.equal(await decrypt('other', other.ciphertext), 'via chacha');
  });

  it('encrypt creates a missing key (upsert, as established), of the type asked for', async () => {
    const sealed = (await t.ok('POST', 'transit/encrypt/upserted', { plaintext: b64('x'), type: 'aes128-gcm96' })).data;
    assert.equal((await t.ok('GET', 'transit/keys/upserted')).data.type, 'aes128-gcm96');
    assert.equal(await decrypt('upserted', sealed.ciphertext), 'x');
  });

  it('rotates: new ciphertexts use the new version, old ones decrypt until min_decryption_version passes them', async () => {
    await t.ok('POST', 'transit/keys/rotating');
    const v1 = (await encrypt('rotating', 'one')).ciphertext;
    await t.ok('POST', 'transit/keys/rotating/rotate');
    const v2 = await encrypt('rotating', 'two');
    assert.equal(v2.key_version, 2);
    assert.match(v2.ciphertext, /^vault:v2:/);
    assert.equal(await decrypt('rotating', v1), 'one');
    const pinned = await t.ok('POST', 'transit/encrypt/rotating', { plaintext: b64('old'), key_version: 1 });
    assert.match(pinned.data.ciphertext, /^vault:v1:/);

    await t.ok('POST', 'transit/keys/rotating/config', { min_decryption_version: 2 });
    const tooOld = await call('POST', 'transit/decrypt/rotating', { ciphertext: v1 });
    assert.deepEqual(
      [tooOld.status, tooOld.body.errors],
      [400, ['ciphertext or signature version is disallowed by policy (too old)']],
    );
    assert.equal(await decrypt('rotating', v2.ciphertext), 'two');
    assert.equal((await call('POST', 'transit/keys/rotating/config', { min_decryption_version: 3 })).status, 400);
    const future = `vault:v9:${v2.ciphertext.split(':')[2]}`;
    assert.equal((await call('POST', 'transit/decrypt/rotating', { ciphertext: future })).status, 400);
  });

  it('deletes a key only once deletion_allowed is set', async () => {
    await t.ok('POST', 'transit/keys/doomed');
    const refused = await call('DELETE', 'transit/keys/doomed');
    assert.deepEqual([refused.status, refused.body.errors], [400, ['deletion is not allowed for this key']]);
    await t.ok('POST', 'transit/keys/doomed/config', { deletion_allowed: true });
    await t.ok('DELETE', 'transit/keys/doomed');
    assert.equal((await call('GET', 'transit/keys/doomed')).status, 404);
  });

  it('refuses unknown types and managed-key fields without type managed_key; a second create changes nothing', async () => {
    for (const body of [{ type: 'kitty' }, { managed_key_name: 'k' }, { convergent_encryption: true }]) {
      const r = await call('POST', 'transit/keys/unsupported', body);
      assert.equal(r.status, 400, JSON.stringify(body));
    }
    assert.equal((await call('GET', 'transit/keys/unsupported')).status, 404, 'nothing was created');
    assert.equal((await call('POST', 'transit/sign/app', { input: b64('x') })).status, 400);
    const again = await call('POST', 'transit/keys/app');
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.warnings, ['key app already existed']);
  });
});
