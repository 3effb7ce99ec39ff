import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from '../src/server/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// Issue 28 point 3: a form-encoded body is parsed in linear time and under the listener's JSON
// limits; a large one without a token neither freezes the server nor slips past the entry count.
// (Before: 8.5-12.9 s with sys/health blocked; the bound of 4 s leaves room for a loaded machine.)
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const form = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=1`).join('&');

describe('form-encoded bodies (issue 28 point 3)', () => {
  let dev: DevWard;
  before(async () => {
    dev = await startDevWard('form-root');
    const mounted = await request(dev.url, 'POST', 'sys/auth/userpass', {
      token: 'form-root',
      body: { type: 'userpass' },
    });
    assert.equal(mounted.status, 204);
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('answers a 40,000-field form at sys/unseal at once, and sys/health meanwhile', async () => {
    for (const path of ['sys/unseal', 'auth/userpass/login/x', 'sys/wrapping/lookup']) {
      const started = performance.now();
      const big = request(dev.url, 'PUT', path, { token: null, body: form(40_000), headers: FORM });
      const health = await request(dev.url, 'GET', 'sys/health');
      const healthMs = performance.now() - started;
      const res = await big;
      const totalMs = performance.now() - started;
      assert.equal(health.status, 200);
      assert.equal(res.status, 400, path);
      assert.match(res.body.errors[0], /max_json_object_entry_count/, path);
      assert.ok(totalMs < 4000, `${path}: answered after ${Math.round(totalMs)} ms`);
      assert.ok(healthMs < 4000, `${path}: sys/health waited ${Math.round(healthMs)} ms`);
    }
  });

  it('refuses a form with more fields than max_json_object_entry_count, and a value over the string limit', async () => {
    const body = form(10_001);
    const res = await request(dev.url, 'PUT', 'secret/data/f', { token: 'form-root', body, headers: FORM });
    assert.equal(res.status, 400);
    assert.match(res.body.errors[0], /max_json_object_entry_count \(10000\)/);
    const long = `value=${'x'.repeat(1_048_577)}`;
    const tooLong = await request(dev.url, 'PUT', 'secret/data/f', { token: 'form-root', body: long, headers: FORM });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body.errors[0], /max_json_string_value_length/);
  });

  it('still accepts a form within the limits, repeated keys joined by commas', async () => {
    const res = await request(dev.url, 'PUT', 'sys/policies/acl/formed', {
      token: 'form-root',
      body: `policy=${encodeURIComponent('path "a" { capabilities = ["read"] }')}&x=1&x=2`,
      headers: FORM,
    });
    assert.equal(res.status, 204);
    const read = await request(dev.url, 'GET', 'sys/policies/acl/formed', { token: 'form-root' });
    assert.match(read.body.data.policy, /capabilities/);
  });
});
