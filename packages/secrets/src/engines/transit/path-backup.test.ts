import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../logical/errors.js';
import { b64, transitForTest } from './testing.js';

// Issue 32: backup/restore, random, hash and cache-config as established.

describe('transit backup, restore and utilities', () => {
  it('backs up only with allow_plaintext_backup, restores under a name, and refuses to overwrite without force', async () => {
    const t = await transitForTest();
    await t.ok('keys/app');
    const refused = await t.read('backup/app');
    assert.equal(refused?.raw?.status, 500, 'the established server answers 500');
    await t.ok('keys/app/config', { exportable: true, allow_plaintext_backup: true });
    const { ciphertext } = await t.ok('encrypt/app', { plaintext: b64('kept') });
    const { backup } = await t.get('backup/app');
    assert.equal((await t.write('restore', { backup }))?.raw?.status, 500, 'app exists');
    await t.write('restore/copy', { backup });
    await t.write('restore', { backup, force: true });
    const opened = await t.ok('decrypt/copy', { ciphertext });
    assert.equal(Buffer.from(opened.plaintext, 'base64').toString(), 'kept');
    await assert.rejects(t.write('restore/x', { backup: b64('{"format":"other"}') }), InvalidRequestError);
  });

  it('answers random bytes, hashes and the cache size', async () => {
    const t = await transitForTest();
    assert.equal(Buffer.from((await t.ok('random')).random_bytes, 'base64').length, 32);
    assert.equal((await t.ok('random/16', { format: 'hex' })).random_bytes.length, 32);
    assert.equal((await t.ok('random/platform/8', { format: 'hex' })).random_bytes.length, 16);
    await assert.rejects(t.write('random', { bytes: 200_000 }), InvalidRequestError);
    const sum = await t.ok('hash/sha2-512', { input: b64('abc'), format: 'hex' });
    assert.match(sum.sum, /^ddaf35a193617aba/);
    assert.equal((await t.ok('hash', { input: b64('abc') })).sum.slice(0, 8), 'ba7816bf');
    await assert.rejects(t.write('hash', { input: b64('abc'), algorithm: 'meow' }), InvalidRequestError);
    assert.equal((await t.get('cache-config')).size, 0);
    await assert.rejects(t.write('cache-config', { size: 5 }), InvalidRequestError);
    await t.ok('cache-config', { size: 100 });
    assert.equal((await t.get('cache-config')).size, 100);
  });
});
