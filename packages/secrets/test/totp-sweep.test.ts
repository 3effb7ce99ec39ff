import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import { SWEEP_INTERVAL_MS } from '../src/engines/totp/used-codes.js';
import { startTestServer } from '../src/server/testing.js';

// Issue 14: the TOTP engine's replay record is swept by its periodic task on the core's
// scheduler, not by a validation that happens to come along.

describe('TOTP used-code sweep', () => {
  it('removes expired records on the scheduler, with no request arriving', async () => {
    const clock = new FakeClock('2024-01-01T00:00:00Z');
    const t = await startTestServer({ clock });
    try {
      await t.request('POST', 'sys/mounts/totp', { body: { type: 'totp' } });
      await t.request('POST', 'totp/keys/app', { body: { key: 'JBSWY3DPEHPK3PXP' } });
      const code = (await t.request('GET', 'totp/code/app')).body.data.code;
      assert.deepEqual((await t.request('POST', 'totp/code/app', { body: { code } })).body.data, { valid: true });
      const uuid = (await t.request('GET', 'sys/mounts')).body.data['totp/'].uuid;
      const used = () => t.server.core.barrier.list(`logical/${uuid}/used/`);
      assert.deepEqual(await used(), ['app/']);

      // Refused for 90 s (period 30 × (2 + skew 1)), then gone by the next sweep after that.
      for (let passed = 0; passed < 90_000 + 2 * SWEEP_INTERVAL_MS; passed += 10_000) {
        clock.advance(10_000);
        await t.server.core.scheduler.settled();
      }
      assert.deepEqual(await used(), [], 'swept once expired');
    } finally {
      await t.stop();
    }
  });
});
