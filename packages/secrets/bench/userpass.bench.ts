import assert from 'node:assert/strict';
import { hash, verify } from '@node-rs/bcrypt';
import autocannon from 'autocannon';
import {
  best,
  CONNECTIONS,
  DURATION_S,
  type Figures,
  measure,
  ROUNDS,
  type Running,
  startWardDev,
} from './bench-support.js';

/**
 * Userpass logins per second on a dev server (bcrypt cost 10, both cores busy), as a ratio
 * to raw bcrypt verifications per second measured in this process in the same run (goal:
 * at least 0.8): a login is one verification plus a token, so the server should add little.
 * Then the p99 latency of KV reads during a login storm, as a ratio to their p99 alone
 * (goal: at most 2): hashing runs on the libuv pool, so the event loop keeps answering.
 */
const HEADERS = { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' };
/** libuv's default pool size: as many verifications in flight as the server can run at once. */
const POOL = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

async function setUp(ward: Running): Promise<void> {
  const post = (path: string, body: unknown) =>
    fetch(`${ward.url}/v1/${path}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
  assert.equal(
    (await post('sys/auth/userpass', { type: 'userpass', options: { lockout_disable: 'true' } })).status,
    204,
  );
  assert.equal((await post('auth/userpass/users/bench', { password: 'bench-password' })).status, 204);
  assert.equal((await post('secret/data/bench/read', { data: { a: 1 } })).status, 200);
  const login = await post('auth/userpass/login/bench', { password: 'bench-password' });
  assert.equal(login.status, 200);
}

/** Raw bcrypt verifications per second, POOL at a time, for DURATION_S. */
async function rawVerifications(): Promise<number> {
  const stored = await hash('bench-password', { cost: 10, version: '2a' });
  const until = Date.now() + DURATION_S * 1000;
  let count = 0;
  const worker = async () => {
    while (Date.now() < until) {
      await verify('bench-password', stored);
      count++;
    }
  };
  const start = Date.now();
  await Promise.all(Array.from({ length: POOL }, worker));
  return count / ((Date.now() - start) / 1000);
}

const loginStorm = (ward: Running): autocannon.Options => ({
  url: `${ward.url}/v1/auth/userpass/login/bench`,
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ password: 'bench-password' }),
});

async function main() {
  const ward = await startWardDev();
  try {
    await setUp(ward);
    const reads = { url: `${ward.url}/v1/secret/data/bench/read`, headers: HEADERS };
    const rounds: Record<string, Figures[]> = { logins: [], quiet: [], busy: [] };
    const raw: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raw.push(await rawVerifications());
      rounds.logins?.push(await measure('userpass login', ward, loginStorm(ward)));
      rounds.quiet?.push(await measure('KV read alone', ward, { ...reads, connections: 4 }));
      const [busy] = await Promise.all([
        measure('KV read during login storm', ward, { ...reads, connections: 4 }),
        autocannon({ ...loginStorm(ward), connections: CONNECTIONS, duration: DURATION_S }),
      ]);
      rounds.busy?.push(busy);
    }
    const rawBest = Math.max(...raw);
    const logins = best(rounds.logins ?? []);
    const quiet = best(rounds.quiet ?? []);
    const busy = best(rounds.busy ?? []);
    const loginRatio = logins.rps / rawBest;
    const p99Ratio = busy.p99Ms / Math.max(quiet.p99Ms, 1);
    console.log(`\nuserpass bench: ${DURATION_S} s per run, best of ${ROUNDS} rounds, Node ${process.version}`);
    console.log('| measure | value | goal |');
    console.log('|---|---:|---:|');
    console.log(`| raw bcrypt verifications/s (cost 10, ${POOL} at a time) | ${rawBest.toFixed(1)} | |`);
    console.log(`| userpass logins/s | ${logins.rps.toFixed(1)} | |`);
    console.log(
      `| logins / raw verifications | ${loginRatio.toFixed(2)} | ≥ 0.80 ${loginRatio >= 0.8 ? 'met' : 'missed'} |`,
    );
    console.log(`| KV read p99 alone (ms) | ${quiet.p99Ms} | |`);
    console.log(`| KV read p99 during login storm (ms) | ${busy.p99Ms} | |`);
    console.log(`| p99 ratio | ${p99Ratio.toFixed(2)} | ≤ 2.00 ${p99Ratio <= 2 ? 'met' : 'missed'} |`);
  } finally {
    await ward.stop();
  }
}

await main();
