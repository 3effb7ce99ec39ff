import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../src/server/testing.js';

const POLICY = `length = 20
rule "charset" {
  charset = "abcdefghijklmnopqrstuvwxyz"
  min-chars = 1
}
rule "charset" {
  charset = "0123456789"
  min-chars = 4
}
`;

describe('sys/policies/password over HTTP', () => {
  let ward: TestServer;
  before(async () => {
    ward = await startTestServer();
  });
  after(() => ward.stop());

  it('stores a policy, reads it back as written, lists it and generates passwords that meet it', async () => {
    assert.equal(
      (await ward.request('POST', 'sys/policies/password/digits', { body: { policy: POLICY } })).status,
      204,
    );
    const read = await ward.request('GET', 'sys/policies/password/digits');
    assert.equal(read.status, 200);
    assert.equal(read.body.data.policy, POLICY);
    assert.deepEqual((await ward.request('LIST', 'sys/policies/password')).body.data.keys, ['digits']);

    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const gen = await ward.request('GET', 'sys/policies/password/digits/generate');
      assert.equal(gen.status, 200);
      const password: string = gen.body.data.password;
      assert.match(password, /^[a-z0-9]{20}$/);
      assert.ok(password.replace(/\D/g, '').length >= 4);
      seen.add(password);
    }
    assert.equal(seen.size, 5);
  });

  it('accepts the policy base64-encoded', async () => {
    const policy = Buffer.from(POLICY).toString('base64');
    assert.equal((await ward.request('POST', 'sys/policies/password/b64', { body: { policy } })).status, 204);
    assert.equal((await ward.request('GET', 'sys/policies/password/b64')).body.data.policy, POLICY);
  });

  it('refuses bad policies with 400 and the reason', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /^missing policy$/],
      ['length = 3\nrule "charset" { charset = "ab" }', /passwords must be between 4 and 100 characters/],
      ['length = 101\nrule "charset" { charset = "ab" }', /passwords must be between 4 and 100 characters/],
      ['length = 8\nrule "charset" {\n charset = "ab"\n min-chars = 9\n}', /^invalid password policy: specified rules/],
      ['length = 8 {', /^invalid password policy: /],
      // Possible in principle, but 20 x's drawn from 62 characters never come up: refused, not stored.
      [
        'length = 20\nrule "charset" {\n charset = "x"\n min-chars = 20\n}\nrule "charset" {\n charset = "abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"\n}',
        /are the rules impossible\?/,
      ],
    ];
    for (const [policy, message] of cases) {
      const res = await ward.request('POST', 'sys/policies/password/bad', {
        body: policy === undefined ? {} : { policy },
      });
      assert.equal(res.status, 400, String(policy));
      assert.match(res.body.errors[0], message);
    }
    assert.equal((await ward.request('GET', 'sys/policies/password/bad')).status, 404);
  });

  it('answers 404 for an unknown policy, and deletes', async () => {
    const missing = await ward.request('GET', 'sys/policies/password/nope/generate');
    assert.equal(missing.status, 404);
    assert.equal((await ward.request('DELETE', 'sys/policies/password/b64')).status, 204);
    assert.equal((await ward.request('GET', 'sys/policies/password/b64')).status, 404);
  });
});
