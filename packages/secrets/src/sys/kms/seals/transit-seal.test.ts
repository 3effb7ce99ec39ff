import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sealWrapperCases } from '../../../core/seal/seal-wrapper.case.js';
import { UpstreamError } from '../../../logical/errors.js';
import { startTestServer, type TestServer } from '../../../server/testing.js';
import { TransitSeal, type TransitSealOptions } from './transit-seal.js';

// Issue 29 point 4: `seal "transit"` against another server's real transit engine over HTTP.

describe('seal "transit"', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal((await t.request('POST', 'sys/mounts/transit', { body: { type: 'transit' } })).status, 204);
    assert.equal((await t.request('POST', 'transit/keys/unseal', { body: {} })).status < 300, true);
  });
  after(() => t.stop());
  const seal = (o: Partial<TransitSealOptions> = {}) =>
    new TransitSeal('transit', {
      address: t.url,
      token: t.rootToken,
      keyName: 'unseal',
      mountPath: 'transit',
      tlsSkipVerify: false,
      ...o,
    });

  sealWrapperCases({
    wrapper: async () => seal(),
    rotate: async () => {
      assert.equal((await t.request('POST', 'transit/keys/unseal/rotate')).status < 300, true);
      return seal();
    },
  });

  it('answers UpstreamErrors for a bad token and an unreachable server', async () => {
    await assert.rejects(seal({ token: 'nope' }).wrap(randomBytes(32)), (err: Error) => {
      assert.ok(err instanceof UpstreamError);
      assert.match(err.message, /403/);
      return true;
    });
    await assert.rejects(seal({ address: 'http://127.0.0.1:1' }).wrap(randomBytes(32)), UpstreamError);
  });
});
