// A Ward platform server for the benchmark, run as its own process so it does not share an
// event loop with the load generator. Prints `PORT <n>` once it listens.
import type { AddressInfo } from 'node:net';
import { cryptoRandom, silentLogger, systemClock } from '@ward/base';
import { seedDevAdmin } from '../src/cli/dev-seed.js';
import type { PlatformContext } from '../src/context.js';
import { createMemoryRateLimiter } from '../src/http/rate-limit.js';
import { buildServer } from '../src/http/server.js';
import { openStore, seedCatalogue } from '../src/store/index.js';
import { startOnFreePlan } from '../src/subscriptions/plans.js';

const token = process.env.BENCH_TOKEN ?? 'bench-token';
const store = await openStore({ sqlitePath: ':memory:' }, cryptoRandom);
await seedCatalogue(store);
const ctx: PlatformContext = {
  store,
  clock: systemClock,
  random: cryptoRandom,
  logger: silentLogger,
  edition: 'hosted',
  // One token drives the whole load: the per-token limit would measure 429s, not reads.
  rateLimiter: createMemoryRateLimiter(Number.MAX_SAFE_INTEGER),
};
const admin = await seedDevAdmin(ctx, token);
await store.transaction(async (tx) => {
  const org = await tx.organizations.create({ name: 'bench', email: 'bench@example.com', nowMs: systemClock.now() });
  await tx.organizations.addMember(org.id, admin.userId, 'owner', systemClock.now());
  await startOnFreePlan({ ...ctx, store: tx }, org.id);
});
const server = buildServer(ctx);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
