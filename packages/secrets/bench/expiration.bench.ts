import v8 from 'node:v8';
import vm from 'node:vm';
import { FakeClock, SeededRandom, silentLogger } from '@ward/base';
import { ExpirationManager } from '../src/core/expiration/index.js';
import { testAccessorDigest } from '../src/core/expiration/testing.js';
import type { Storage } from '../src/logical/storage.js';
import { InmemStorage } from '../src/storage/index.js';

/**
 * The expiration manager with 100,000 leases on a fake clock: registrations per second and
 * expirations per second (both persisting to in-memory storage), and the manager's own
 * memory per lease (measured over a storage that keeps nothing, so only the manager counts).
 * Run: `node dist/bench/expiration.bench.js` (LEASES=… to change the count).
 */
const LEASES = Number(process.env.LEASES ?? 100_000);
const TTL_SPREAD_S = 3600;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Keeps nothing: isolates the manager's own memory from the storage's. */
const nullStorage: Storage = {
  get: async () => undefined,
  put: async () => undefined,
  delete: async () => undefined,
  list: async () => [],
  transaction: async () => undefined,
};

async function setup(storage: Storage) {
  const clock = new FakeClock('2024-01-01T00:00:00Z');
  let revoked = 0;
  const manager = new ExpirationManager({
    storage,
    clock,
    random: new SeededRandom(1),
    logger: silentLogger,
    accessorDigest: testAccessorDigest,
    revoker: { revoke: async () => void revoked++ },
  });
  return { manager, clock, revokedCount: () => revoked };
}

async function registerAll(manager: ExpirationManager): Promise<void> {
  for (let i = 0; i < LEASES; i++) {
    await manager.register({
      path: `database/creds/role-${i % 100}`,
      ttlSeconds: 1 + ((i * 7919) % TTL_SPREAD_S),
      renewable: true,
      kind: 'secret',
      tokenAccessor: `accessor${i % 1000}`,
      secret: { username: `v-role-${i}` },
    });
  }
}

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** Registers every lease, restarts (a new manager restores them from storage), then expires them all. */
async function throughput() {
  const storage = new InmemStorage();
  const first = await setup(storage);
  await first.manager.restore();
  let start = process.hrtime.bigint();
  await registerAll(first.manager);
  const registerS = seconds(start);
  await first.manager.stop();

  const { manager, clock, revokedCount } = await setup(storage);
  start = process.hrtime.bigint();
  await manager.restore();
  const restoreS = seconds(start);

  start = process.hrtime.bigint();
  clock.advance((TTL_SPREAD_S + 1) * 1000);
  await manager.settled();
  const expireS = seconds(start);
  if (revokedCount() !== LEASES) throw new Error(`expired ${revokedCount()} of ${LEASES}`);
  return { registrationsPerS: LEASES / registerS, restoresPerS: LEASES / restoreS, expirationsPerS: LEASES / expireS };
}

async function memoryPerLease() {
  gc();
  const before = process.memoryUsage().heapUsed;
  const { manager } = await setup(nullStorage);
  await manager.restore();
  await registerAll(manager);
  gc();
  const after = process.memoryUsage().heapUsed;
  if (manager.count().total !== LEASES) throw new Error('lost leases');
  return (after - before) / LEASES;
}

async function main() {
  const { registrationsPerS, restoresPerS, expirationsPerS } = await throughput();
  const bytes = await memoryPerLease();
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(`expiration manager, ${fmt(LEASES)} leases (fake clock, in-memory storage)`);
  console.log(`  registrations/s   ${fmt(registrationsPerS)}`);
  console.log(`  restored leases/s ${fmt(restoresPerS)}`);
  console.log(`  expirations/s     ${fmt(expirationsPerS)}`);
  console.log(`  memory per lease  ${fmt(bytes)} bytes (manager only)`);
}

await main();
