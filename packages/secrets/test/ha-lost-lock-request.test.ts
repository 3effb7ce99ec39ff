import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ReadOnlyStorageError } from '../src/core/barrier/index.js';
import { type BackendContext, createBackend, definePath, field } from '../src/framework/index.js';
import { startTestServer, type TestServer, withBackends } from '../src/server/testing.js';

// Issue 28 point 9: a write whose body was already read when this server stopped being the active
// one (its storage turned read-only mid-request: the HA lock was lost) answered 500 "request body
// already read" when handed over. It answers 503 with a Retry-After instead: the write did not happen.
/** An engine whose write reads its body, then meets storage that has just turned read-only. */
function createLockLosingBackend(ctx: BackendContext) {
  return createBackend({
    type: 'lock-losing',
    storage: ctx.storage,
    help: 'test engine',
    paths: [
      definePath({
        pattern: 'write',
        fields: { value: field.string({ description: 'anything' }) },
        operations: {
          update: {
            summary: 'fails as a write does once the HA lock is lost',
            handler: async () => {
              throw new ReadOnlyStorageError();
            },
          },
        },
        help: { synopsis: 'test', description: 'test' },
      }),
    ],
  });
}

describe('a write in flight when the active server loses its lock (issue 28 point 9)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ catalog: withBackends({ 'lock-losing': createLockLosingBackend }) });
    assert.equal((await t.request('POST', 'sys/mounts/lose', { body: { type: 'lock-losing' } })).status, 204);
  });
  after(() => t.stop());

  it('answers 503 with a retry hint, not 500', async () => {
    const res = await t.request('POST', 'lose/write', { body: { value: 'x' } });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.headers.get('retry-after'), '1');
    assert.match(res.body.errors[0], /retry/);
  });
});
