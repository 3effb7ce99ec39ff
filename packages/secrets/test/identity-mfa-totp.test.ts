import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Login-MFA TOTP methods (identity/mfa/method/totp*): validated by their field declarations
// (an enum for `algorithm`), secrets generated for and removed from entities.

describe('identity/mfa/method/totp over HTTP', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.stop());

  it('creates, reads, lists, updates and deletes a method', async () => {
    const created = await t.request('POST', 'identity/mfa/method/totp', {
      body: { method_name: 'm1', issuer: 'Ward', algorithm: 'SHA256', digits: 8 },
    });
    assert.equal(created.status, 200);
    const id = created.body.data.method_id;
    const read = await t.request('GET', `identity/mfa/method/totp/${id}`);
    assert.equal(read.body.data.algorithm, 'SHA256');
    assert.equal(read.body.data.digits, 8);
    assert.equal(read.body.data.period, 30);
    const list = await t.request('LIST', 'identity/mfa/method/totp');
    assert.deepEqual(list.body.data.keys, [id]);
    assert.equal(list.body.data.key_info[id].name, 'm1');
    assert.equal((await t.request('POST', `identity/mfa/method/totp/${id}`, { body: { skew: 0 } })).status, 204);
    const updated = (await t.request('GET', `identity/mfa/method/totp/${id}`)).body.data;
    assert.deepEqual([updated.issuer, updated.skew], ['Ward', 0], 'the issuer is kept');
    assert.equal((await t.request('DELETE', `identity/mfa/method/totp/${id}`)).status, 204);
    assert.equal((await t.request('LIST', 'identity/mfa/method/totp')).status, 404);
  });

  it('refuses values outside the declared ones', async () => {
    for (const [body, pattern] of [
      [{ issuer: 'W', algorithm: 'MD5' }, /"algorithm": expected one of \[SHA1 SHA256 SHA512\]/],
      [{ issuer: 'W', digits: 7 }, /digits can only be 6 or 8/],
      [{ algorithm: 'SHA1' }, /issuer must be set/],
    ] as const) {
      const res = await t.request('POST', 'identity/mfa/method/totp', { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.errors[0], pattern);
    }
  });

  it('generates a secret for an entity once, and destroys it', async () => {
    const method = (await t.request('POST', 'identity/mfa/method/totp', { body: { issuer: 'Ward', qr_size: 0 } })).body
      .data.method_id;
    const entity = (await t.request('POST', 'identity/entity', { body: { name: 'alice' } })).body.data.id;
    const first = await t.request('POST', 'identity/mfa/method/totp/admin-generate', {
      body: { method_id: method, entity_id: entity },
    });
    assert.match(first.body.data.url, /^otpauth:\/\/totp\/Ward:/);
    const again = await t.request('POST', 'identity/mfa/method/totp/admin-generate', {
      body: { method_id: method, entity_id: entity },
    });
    assert.deepEqual(again.body.warnings, ['Entity already has a secret for MFA method ""']);
    const destroyed = await t.request('POST', 'identity/mfa/method/totp/admin-destroy', {
      body: { method_id: method, entity_id: entity },
    });
    assert.equal(destroyed.status, 204);
    const fresh = await t.request('POST', 'identity/mfa/method/totp/admin-generate', {
      body: { method_id: method, entity_id: entity },
    });
    assert.notEqual(fresh.body.data.url, first.body.data.url);
  });
});
