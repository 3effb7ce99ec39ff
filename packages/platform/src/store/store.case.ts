import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock, type Random, SeededRandom } from '@ward/base';
import { UnprocessableError } from '../jsonapi/errors.js';
import { changePlan, startOnFreePlan } from '../subscriptions/plans.js';
import {
  appliedMigrations,
  CATALOGUE,
  createDatabaseRateLimiter,
  isUniqueViolation,
  type Store,
  seedCatalogue,
} from './index.js';
import { migrations } from './migrations.js';

/** One kind of database under test: each call of `fresh` gives a new, empty database. */
export interface StoreBackend {
  /** A new database; `open` may be called more than once on it (as separate processes would). */
  fresh(): Promise<{ open(random: Random): Promise<Store> }>;
  /** Stops whatever `fresh` started. */
  stop(): Promise<void>;
}

/** Seeded randomness until `failing` is set; then every draw throws, as a failure mid-change would. */
class BreakableRandom implements Random {
  failing = false;
  readonly #inner = new SeededRandom(7);
  bytes(n: number): Uint8Array {
    if (this.failing) throw new Error('entropy source failed');
    return this.#inner.bytes(n);
  }
}

const planId = (identifier: string) => CATALOGUE.find((fs) => fs.identifier === identifier)?.id ?? '';

/**
 * The behaviour every store backend must show, run against each (`store-sqlite.test.ts`,
 * `store-postgres.test.ts`): the same data in, the same data out, the same constraints, and
 * plan changes that never leave two active subscriptions.
 */
export function describeStore(name: string, backend: () => Promise<StoreBackend>): void {
  describe(`store: ${name}`, () => {
    let b: StoreBackend;
    const clock = new FakeClock('2024-05-01T00:00:00Z');
    let stores: Store[] = [];

    before(async () => {
      b = await backend();
    });
    after(async () => {
      for (const s of stores) await s.close();
      await b.stop();
    });

    /** A store over a new database, seeded, with one organization on the free plan. */
    async function setup(random: Random = new SeededRandom(1)) {
      const db = await b.fresh();
      const open = async (r: Random = random) => {
        const store = await db.open(r);
        stores.push(store);
        await seedCatalogue(store);
        return store;
      };
      const store = await open();
      const deps = { store, clock, random };
      const org = await store.organizations.create({ name: 'Acme', email: 'a@example.com', nowMs: clock.now() });
      const first = await store.transaction((tx) => startOnFreePlan({ ...deps, store: tx }, org.id));
      return { open, store, deps, org, first };
    }

    it('applies every migration once and keeps data across a close and reopen', async () => {
      const { open, store, org } = await setup();
      const versions = migrations(store.database.dialect).map((m) => m.version);
      assert.deepEqual(await appliedMigrations(store.database), versions);
      await store.close();
      stores = stores.filter((s) => s !== store);
      const again = await open(new SeededRandom(2));
      assert.deepEqual(await again.organizations.byName('acme'), org);
      assert.equal(again.featureSets.offered().length, CATALOGUE.length);
      assert.deepEqual(await appliedMigrations(again.database), versions);
    });

    it('looks names up case-insensitively and refuses a taken one as a unique violation', async () => {
      const { store, org } = await setup();
      assert.equal((await store.organizations.byName('ACME'))?.id, org.id);
      await assert.rejects(store.organizations.create({ name: 'acme', email: 'b@example.com', nowMs: 0 }), (err) =>
        isUniqueViolation(err),
      );
      const user = await store.users.create({
        username: 'Alice',
        email: 'Alice@Example.com',
        isSiteAdmin: false,
        nowMs: 1,
      });
      assert.equal((await store.users.byUsername('alice'))?.id, user.id);
      assert.equal((await store.users.byEmail('alice@example.com'))?.id, user.id);
      await assert.rejects(
        store.users.create({ username: 'ALICE', email: 'x@example.com', isSiteAdmin: false, nowMs: 2 }),
        (err) => isUniqueViolation(err),
      );
    });

    it('refuses a second active subscription for one organization', async () => {
      const { store, first } = await setup();
      await assert.rejects(store.subscriptions.insert({ ...first, id: 'sub-2' }), (err) => isUniqueViolation(err));
      await store.subscriptions.insert({ ...first, id: 'sub-3', is_active: 0, end_at: 1 });
    });

    it('lands all of a transaction or none of it', async () => {
      const { store } = await setup();
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.organizations.create({ name: 'gone', email: 'g@example.com', nowMs: 0 });
          throw new Error('changed my mind');
        }),
        /changed my mind/,
      );
      assert.equal(await store.organizations.byName('gone'), undefined);
    });

    it('keeps tokens as hashes, finds them by secret, and replaces the organization token', async () => {
      const { store, org } = await setup();
      const user = await store.users.create({ username: 'u', email: 'u@example.com', isSiteAdmin: false, nowMs: 0 });
      const { row, secret } = await store.tokens.createUserToken({
        userId: user.id,
        description: 'd',
        expiredAtMs: 5_000,
        nowMs: 1,
      });
      assert.deepEqual(await store.tokens.bySecret(secret), row);
      await store.tokens.touch(row.id, 99);
      assert.equal((await store.tokens.get(row.id))?.last_used_at, 99);
      assert.deepEqual(
        (await store.tokens.forUser(user.id)).map((t) => t.id),
        [row.id],
      );
      const first = await store.transaction((tx) =>
        tx.tokens.replaceOrganizationToken({ organizationId: org.id, expiredAtMs: null, nowMs: 2 }),
      );
      const second = await store.transaction((tx) =>
        tx.tokens.replaceOrganizationToken({ organizationId: org.id, expiredAtMs: null, nowMs: 3 }),
      );
      assert.equal(await store.tokens.bySecret(first.secret), undefined);
      assert.equal((await store.tokens.bySecret(second.secret))?.organization_id, org.id);
      assert.equal(await store.tokens.deleteOrganizationToken(org.id), true);
      assert.equal(await store.tokens.deleteOrganizationToken(org.id), false);
    });

    it('removes an organization with its memberships and subscriptions', async () => {
      const { store, org, first } = await setup();
      const user = await store.users.create({ username: 'o', email: 'o@example.com', isSiteAdmin: false, nowMs: 0 });
      const owner = await store.organizations.addMember(org.id, user.id, 'owner', 0);
      // Adding again, even at once, returns the one membership.
      const again = await Promise.all([
        store.organizations.addMember(org.id, user.id, 'member', 1),
        store.organizations.addMember(org.id, user.id, 'member', 2),
      ]);
      assert.deepEqual(again, [owner, owner]);
      assert.deepEqual(
        (await store.organizations.forUser(user.id)).map((o) => o.name),
        ['Acme'],
      );
      await store.organizations.delete(org.id);
      assert.equal(await store.subscriptions.get(first.id), undefined);
      assert.equal(await store.organizations.membership(org.id, user.id), undefined);
    });

    it('shares sessions between stores on one database, and forgets expired ones', async () => {
      const { open, store } = await setup();
      const other = await open(new SeededRandom(3));
      const user = await store.users.create({ username: 's', email: 's@example.com', isSiteAdmin: false, nowMs: 0 });
      await store.sessions.create({ sessionId: 'cookie', userId: user.id, csrfToken: 'c', nowMs: 0, expiresAtMs: 100 });
      assert.deepEqual(await other.sessions.get('cookie', 99), { user_id: user.id, csrf_token: 'c', expires_at: 100 });
      assert.equal(await other.sessions.get('cookie', 100), undefined);
      await other.sessions.delete('cookie');
      assert.equal(await store.sessions.get('cookie', 0), undefined);
    });

    it('counts rate-limit hits in the database, together for every store on it', async () => {
      const { open, store } = await setup();
      const other = await open(new SeededRandom(4));
      const mine = createDatabaseRateLimiter(store.database, 3);
      const theirs = createDatabaseRateLimiter(other.database, 3);
      const t = 1_700_000_000_250;
      assert.equal((await mine.hit('k', t)).remaining, 2);
      assert.equal((await theirs.hit('k', t + 1)).remaining, 1);
      assert.equal((await mine.hit('other-key', t)).remaining, 2);
      assert.equal((await theirs.hit('k', t + 2)).remaining, 0);
      const over = await mine.hit('k', t + 3);
      assert.equal(over.isLimited, true);
      assert.equal(over.resetAtMs, 1_700_000_001_000);
      assert.equal((await theirs.hit('k', t + 750)).isLimited, false);
    });

    describe('changePlan', () => {
      it('ends the active subscription and starts the new one at the same instant', async () => {
        const { store, deps, org, first } = await setup();
        clock.advance(1000);
        const team = store.featureSets.byIdentifier('team');
        const { ended, started } = await changePlan(deps, org.id, team?.id ?? '');
        assert.equal(ended?.id, first.id);
        assert.equal((await store.subscriptions.get(first.id))?.is_active, 0);
        assert.equal((await store.subscriptions.get(first.id))?.end_at, clock.now());
        assert.equal(started.start_at, clock.now());
        assert.equal((await store.subscriptions.active(org.id))?.id, started.id);
        assert.equal(started.runs_ceiling, team?.default_runs_ceiling);
      });

      it('is one transaction: when starting the new subscription fails, the old one stays active', async () => {
        const random = new BreakableRandom();
        const { store, org, first } = await setup(random);
        random.failing = true;
        await assert.rejects(changePlan({ store, clock, random }, org.id, planId('team')), /entropy/);
        const active = await store.subscriptions.active(org.id);
        assert.equal(active?.id, first.id);
        assert.equal(active?.end_at, null);
      });

      it('refuses the current plan and contract-only plans', async () => {
        const { deps, org } = await setup();
        for (const identifier of ['free', 'business']) {
          await assert.rejects(changePlan(deps, org.id, planId(identifier)), UnprocessableError);
        }
      });

      it('never leaves two active subscriptions when changes race, from one store or two', async () => {
        const { open, store, deps, org } = await setup();
        // Two SQLite connections in one process cannot both hold a transaction across awaits (the
        // second's BEGIN IMMEDIATE blocks the thread the first needs); across processes they can,
        // and one process serialises its own transactions, which this exercises.
        const other = name === 'sqlite' ? store : await open(new SeededRandom(9));
        const plans = ['team', 'governance', 'free', 'team', 'governance', 'free', 'team', 'governance'];
        const results = await Promise.allSettled(
          plans.map((identifier, i) =>
            changePlan({ ...deps, store: i % 2 === 0 ? store : other }, org.id, planId(identifier)),
          ),
        );
        for (const r of results) {
          // A change may only be refused for being the plan already in force at its turn.
          if (r.status === 'rejected') assert.ok(r.reason instanceof UnprocessableError, String(r.reason));
        }
        const active = await store.database.all<{ id: string }>(
          'SELECT id FROM subscriptions WHERE organization_id = ? AND is_active = 1',
          [org.id],
        );
        assert.equal(active.length, 1);
        const all = await store.database.get<{ n: number }>(
          'SELECT count(*) AS n FROM subscriptions WHERE organization_id = ?',
          [org.id],
        );
        assert.equal(all?.n, 1 + results.filter((r) => r.status === 'fulfilled').length);
      });
    });
  });
}
