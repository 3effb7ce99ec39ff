import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_JSON_LIMITS } from '../src/http/json-body.js';
import { listenerConfig } from '../src/server/config.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 12 point 5: the listener's JSON limits are enforced while a body is parsed, answered
// with a 400 that names the limit, and nothing the server accepts is unreadable afterwards.
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const bodyWithDepth = (depth: number) => `{"data":{"x":${nested(depth - 2)}}}`;

describe('JSON limits of the listener (issue 12)', () => {
  let t: TestServer;
  let dir: string;
  const post = (path: string, body: string) => t.request('POST', path, { body });
  const assertRefused = async (body: string, limit: string) => {
    const res = await post('secret/data/limited', body);
    assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 200));
    assert.match(res.body.errors[0], new RegExp(limit));
  };
  const assertReadable = async (path: string) => {
    for (const p of [`secret/data/${path}`, `secret/subkeys/${path}`, `secret/metadata/${path}`]) {
      const res = await t.request('GET', p);
      assert.equal(res.status, 200, `${p}: ${JSON.stringify(res.body).slice(0, 200)}`);
    }
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ward-json-'));
    t = await startTestServer();
    const audit = await t.request('POST', 'sys/audit/file', {
      body: { type: 'file', options: { file_path: join(dir, 'audit.log') } },
    });
    assert.equal(audit.status, 204);
  });
  after(async () => {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses nesting deeper than max_json_depth (500) and serves what it accepts at that depth', async () => {
    await assertRefused(bodyWithDepth(501), 'max_json_depth');
    await assertRefused(`{"data":{"x":${'['.repeat(20_000)}`, 'max_json_depth');
    await assertRefused(bodyWithDepth(5_000), 'max_json_depth');
    assert.equal((await post('secret/data/deep', bodyWithDepth(500))).status, 200);
    await assertReadable('deep');
    const patch = await t.request('PATCH', 'secret/data/deep', {
      body: '{"data":{"y":1}}',
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    assert.equal(patch.status, 200);
  });

  it('audits a refused body', async () => {
    await post('secret/data/audited', `{"data":{"x":${'['.repeat(20_000)}`);
    const log = readFileSync(join(dir, 'audit.log'), 'utf8');
    const refusals = log.split('\n').filter((line) => line.includes('max_json_depth'));
    assert.ok(refusals.length > 0, 'the refusal is in the audit log');
  });

  it('refuses a string longer than max_json_string_value_length (1 MiB), key or value', async () => {
    const long = 'a'.repeat(1_048_577);
    await assertRefused(`{"data":{"x":"${long}"}}`, 'max_json_string_value_length');
    await assertRefused(`{"data":{"${long}":1}}`, 'max_json_string_value_length');
    assert.equal((await post('secret/data/longest', `{"data":{"x":"${'a'.repeat(1_048_576)}"}}`)).status, 200);
    await assertReadable('longest');
  });

  it('refuses objects and arrays over max_json_object_entry_count and max_json_array_element_count (10,000)', async () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',');
    await assertRefused(`{"data":{${entries(10_001)}}}`, 'max_json_object_entry_count');
    await assertRefused(`{"data":{"x":[${Array(10_001).fill(1).join(',')}]}}`, 'max_json_array_element_count');
    assert.equal((await post('secret/data/wide', `{"data":{${entries(10_000)}}}`)).status, 200);
    assert.equal(
      (await post('secret/data/long-list', `{"data":{"x":[${Array(10_000).fill(1).join(',')}]}}`)).status,
      200,
    );
    await assertReadable('wide');
    await assertReadable('long-list');
  });

  it('takes the limits from the listener block, and refuses a depth it could not serve back', async () => {
    const config = listenerConfig({
      address: '127.0.0.1:0',
      tls_disable: true,
      max_json_depth: 1_000,
      max_json_string_value_length: 10,
      max_json_object_entry_count: 3,
      max_json_array_element_count: 2,
    });
    assert.deepEqual(config.jsonLimits, {
      maxDepth: 1_000,
      maxStringValueLength: 10,
      maxObjectEntryCount: 3,
      maxArrayElementCount: 2,
    });
    assert.deepEqual(listenerConfig({ address: '127.0.0.1:0', tls_disable: true }).jsonLimits, DEFAULT_JSON_LIMITS);
    assert.throws(() => listenerConfig({ address: ':0', tls_disable: true, max_json_depth: 1_001 }), /max_json_depth/);
    assert.throws(() => listenerConfig({ address: ':0', tls_disable: true, max_json_array_element_count: 0 }));

    const deep = await startTestServer({ listener: { jsonLimits: { ...DEFAULT_JSON_LIMITS, maxDepth: 1_000 } } });
    try {
      const write = await deep.request('POST', 'secret/data/deepest', { body: bodyWithDepth(1_000) });
      assert.equal(write.status, 200);
      for (const p of ['secret/data/deepest', 'secret/subkeys/deepest']) {
        assert.equal((await deep.request('GET', p)).status, 200, p);
      }
      assert.equal((await deep.request('POST', 'secret/data/x', { body: bodyWithDepth(1_001) })).status, 400);
    } finally {
      await deep.stop();
    }
  });
});
