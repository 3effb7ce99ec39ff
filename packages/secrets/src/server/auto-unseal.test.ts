import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { parseStorageBlock } from '../storage/index.js';
import { AUTO_UNSEAL_RETRY_MS } from './auto-unseal.js';
import type { SealsConfig } from './seal-config.js';
import { startTestServer } from './testing.js';

// Issue 29 point 4: a server whose key service is down at start stays sealed and unseals itself
// once the service answers again, with nobody there.

describe('auto-unseal', () => {
  it('keeps trying every 5 s while the key service is unreachable, then unseals', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ward-auto-unseal-'));
    const keeper = await startTestServer();
    const clock = new FakeClock('2030-01-01T00:00:00Z');
    let t: Awaited<ReturnType<typeof startTestServer>> | undefined;
    try {
      assert.equal((await keeper.request('POST', 'sys/mounts/transit', { body: { type: 'transit' } })).status, 204);
      const settings = {
        provider: 'transit' as const,
        address: keeper.url,
        token: keeper.rootToken,
        keyName: 'k',
        mountPath: 'transit',
        tlsSkipVerify: false,
      };
      const seals: SealsConfig = { enabled: { type: 'transit', disabled: false, settings, inertKeys: [] } };
      const storage = parseStorageBlock('sqlite', { path: join(dir, 'ward.db') });
      t = await startTestServer({ storage, seals, uninitialized: true, clock });
      assert.equal(
        (await t.request('PUT', 'sys/init', { body: { recovery_shares: 1, recovery_threshold: 1 } })).status,
        200,
      );
      await t.stop();

      assert.equal((await keeper.request('PUT', 'sys/seal')).status, 204);
      t = await startTestServer({ storage, seals, uninitialized: true, clock });
      assert.equal(t.server.core.isSealed(), true, 'the key service is sealed: so is this server');
      clock.advance(AUTO_UNSEAL_RETRY_MS);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(t.server.core.isSealed(), true, 'still down');

      await keeper.server.core.submitUnsealKey(keeper.unsealKey);
      clock.advance(AUTO_UNSEAL_RETRY_MS);
      for (let i = 0; i < 50 && t.server.core.isSealed(); i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(t.server.core.isSealed(), false, 'unsealed by the retry');
    } finally {
      await t?.stop();
      await keeper.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
