import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// `sys/tools/random` and `sys/tools/hash`, as established (the web UI's Random and Hash tools use them):
// the same fields and answers as transit's `random` and `hash`.

describe('sys/tools', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('answers random bytes: 32 base64 by default, a count and a source in the URL or the body', async () => {
    const plain = await t.request('POST', 'sys/tools/random', { body: {} });
    assert.equal(plain.status, 200);
    assert.equal(Buffer.from(plain.body.data.random_bytes, 'base64').length, 32);
    const hex = await t.request('POST', 'sys/tools/random/16', { body: { format: 'hex' } });
    assert.match(hex.body.data.random_bytes, /^[0-9a-f]{32}$/);
    const sourced = await t.request('POST', 'sys/tools/random/platform/8', { body: { format: 'hex' } });
    assert.match(sourced.body.data.random_bytes, /^[0-9a-f]{16}$/);
    const bad = await t.request('POST', 'sys/tools/random', { body: { format: 'base32' } });
    assert.equal(bad.status, 400);
    assert.equal((await t.request('POST', 'sys/tools/random/999999999', { body: {} })).status, 400);
  });

  it('hashes base64 input with the named algorithm, hex or base64', async () => {
    const input = Buffer.from('hello').toString('base64');
    const res = await t.request('POST', 'sys/tools/hash', { body: { input } });
    assert.equal(res.body.data.sum, createHash('sha256').update('hello').digest('hex'));
    const url = await t.request('POST', 'sys/tools/hash/sha2-512', { body: { input, format: 'base64' } });
    assert.equal(url.body.data.sum, createHash('sha512').update('hello').digest('base64'));
    const unknown = await t.request('POST', 'sys/tools/hash', { body: { input, algorithm: 'md5' } });
    assert.deepEqual([unknown.status, unknown.body.errors], [400, ['unsupported hash algorithm md5']]);
    const garbled = await t.request('POST', 'sys/tools/hash', { body: { input: 'not base64!' } });
    assert.deepEqual([garbled.status, garbled.body.errors], [400, ['failed to base64-decode input']]);
  });
});
