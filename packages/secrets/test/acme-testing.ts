import type { FakeClock } from '@ward/base';
import type { TestServer } from '../src/server/testing.js';

/**
 * Moves the test server's fake clock past every retry of the failed ACME validations (5 s, 10 s, …
 * 30 s apart, as established), letting each queued retry run before the next step.
 */
export async function runValidationRetries(t: TestServer, steps = 8): Promise<void> {
  for (let i = 0; i < steps; i++) {
    (t.clock as FakeClock).advance(31_000);
    await t.server.core.scheduler.settled();
  }
}
