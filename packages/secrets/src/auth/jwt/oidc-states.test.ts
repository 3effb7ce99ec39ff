import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock, SeededRandom } from '@ward/base';
import { InmemStorage } from '../../storage/index.js';
import { OidcStates } from './oidc-states.js';

// Issue 31 point 3: started OIDC logins live in the mount's storage, used once, swept when expired.
describe('OidcStates', () => {
  const make = () => {
    const clock = new FakeClock(0);
    return { clock, storage: new InmemStorage(), states: new OidcStates(clock, new SeededRandom(7)) };
  };

  it('finds a flow once from storage, through another instance sharing it', async () => {
    const { clock, storage, states } = make();
    const { state } = await states.start(storage, 'web', 'http://localhost/cb', 'cn');
    const other = new OidcStates(clock, new SeededRandom(8));
    const flow = await other.take(storage, state);
    assert.equal(flow?.roleName, 'web');
    assert.equal(flow?.clientNonce, 'cn');
    assert.equal(await states.take(storage, state), undefined, 'used once');
    assert.equal(await states.take(storage, '../config'), undefined, 'not a state id: never a storage key');
  });

  it('refuses an expired flow and sweeps expired ones out of storage', async () => {
    const { clock, storage, states } = make();
    const old = await states.start(storage, 'web', 'http://localhost/cb', '');
    clock.advance(5 * 60_000);
    const fresh = await states.start(storage, 'web', 'http://localhost/cb', '');
    clock.advance(5 * 60_000);
    await states.sweep(storage);
    assert.deepEqual(await storage.list('oidc_state/'), [fresh.state]);
    assert.equal(await states.take(storage, old.state), undefined);
    clock.advance(5 * 60_000);
    assert.equal(await states.take(storage, fresh.state), undefined, 'expired at 10 minutes');
    assert.deepEqual(await storage.list('oidc_state/'), [], 'and deleted when found expired');
  });
});
