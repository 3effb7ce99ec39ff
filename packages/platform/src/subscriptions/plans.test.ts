import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, type Random, SeededRandom } from '@ward/base';
import { UnprocessableError } from '../jsonapi/errors.js';
import { openStore, seedCatalogue } from '../store/index.js';
import { changePlan, startOnFreePlan } from './plans.js';

/** Seeded bytes until `failing` is set; then every draw throws, as a failure mid-change would. */
class BreakableRandom implements Random {
  failing = false;
  readonly #inner = new SeededRandom(7);
  bytes(n: number): Uint8Array {
    if (this.failing) throw new Error('entropy source failed');
    return this.#inner.bytes(n);
  }
}

function setup() {
  const random = new BreakableRandom();
  const store = openStore(':memory:', random);
  seedCatalogue(store);
  const clock = new FakeClock('2024-05-01T00:00:00Z');
  const deps = { store, clock, random };
  const org = store.organizations.create({ name: 'acme', email: 'a@example.com', nowMs: clock.now() });
  const first = startOnFreePlan(deps, org.id);
  return { deps, random, store, clock, org, first };
}

describe('changePlan', () => {
  it('ends the active subscription and starts the new one at the same instant', () => {
    const { deps, store, clock, org, first } = setup();
    clock.advance(1000);
    const team = store.featureSets.byIdentifier('team');
    const { ended, started } = changePlan(deps, org.id, team?.id ?? '');
    assert.equal(ended?.id, first.id);
    assert.equal(store.subscriptions.get(first.id)?.is_active, 0);
    assert.equal(store.subscriptions.get(first.id)?.end_at, clock.now());
    assert.equal(started.start_at, clock.now());
    assert.equal(store.subscriptions.active(org.id)?.id, started.id);
    assert.equal(started.runs_ceiling, team?.default_runs_ceiling);
  });

  it('is one transaction: when starting the new subscription fails, the old one stays active', () => {
    const { deps, random, store, org, first } = setup();
    random.failing = true;
    assert.throws(() => changePlan(deps, org.id, store.featureSets.byIdentifier('team')?.id ?? ''), /entropy/);
    const active = store.subscriptions.active(org.id);
    assert.equal(active?.id, first.id);
    assert.equal(active?.end_at, null);
  });

  it('refuses the current plan and contract-only plans', () => {
    const { deps, store, org } = setup();
    for (const identifier of ['free', 'business']) {
      assert.throws(
        () => changePlan(deps, org.id, store.featureSets.byIdentifier(identifier)?.id ?? ''),
        UnprocessableError,
      );
    }
  });
});
