import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import type pg from 'pg';
import { PG_ROOT, PG_ROOT_PASSWORD, PostgresServer } from '../test/postgres.js';
import { cpuSeconds, type Running, rootApi, rootCall, runWorkers, startWardDev } from './bench-support.js';

/**
 * Dynamic PostgreSQL credentials issued and revoked per second (issue 33): `GET database/creds/:role`
 * then `PUT sys/leases/revoke` on a dev server against a throwaway PostgreSQL, as a ratio to the same
 * `CREATE ROLE … WITH LOGIN PASSWORD … VALID UNTIL …` then `DROP ROLE` sent directly with `pg` as the
 * same superuser, in the same run. Goal: at least 0.5. Both sides run WORKERS concurrent loops for
 * SECONDS (bounded by time, not by a count); the raw side has one connection per worker and the
 * engine's pool as many (`max_open_connections`), so neither is short of connections.
 * Ward's cycle also sends BEGIN/COMMIT around each statement list and asks whether the user exists
 * before dropping it (five more round trips than the raw cycle's two).
 */
const WORKERS = Number(process.env.BENCH_DB_WORKERS ?? 8);
const SECONDS = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const GOAL = 0.5;
const CREATE = `CREATE ROLE "{{name}}" WITH LOGIN PASSWORD '{{password}}' VALID UNTIL '{{expiration}}';`;
const DROP = 'DROP ROLE "{{name}}";';

interface Pids {
  postgres: number[];
  ward: number;
}

interface Figures {
  cyclesPerSecond: number;
  /** PostgreSQL's count of rolled-back transactions and of sessions opened during the run. */
  rollbacks: number;
  sessions: number;
  /** CPU µs per cycle: of the bench process (the client side), PostgreSQL (all its processes), ward. */
  cpuUs: { client: number; postgres: number; ward: number };
}

/** The PostgreSQL processes (postmaster and backends) under `parent`, read from /proc. */
function postgresPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm.startsWith('postgres') && (Number(entry) === parent || ppid === parent)) pids.push(Number(entry));
    } catch {
      // The process ended while listed.
    }
  }
  return pids;
}

/** `pg_stat_database`'s rollbacks and sessions so far (flushed by the backends about once a second). */
async function stats(db: PostgresServer): Promise<{ rollbacks: number; sessions: number }> {
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const [row] = await db.query<{ r: string; s: string }>(
    "SELECT xact_rollback AS r, sessions AS s FROM pg_stat_database WHERE datname = 'postgres'",
  );
  return { rollbacks: Number(row?.r), sessions: Number(row?.s) };
}

async function timed(
  db: PostgresServer,
  pids: () => Pids,
  work: (worker: number, i: number) => Promise<void>,
): Promise<Figures> {
  const cpu = () => {
    const p = pids();
    const own = process.cpuUsage();
    return {
      client: (own.user + own.system) / 1e6,
      postgres: p.postgres.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      ward: cpuSeconds(p.ward),
    };
  };
  const statsBefore = await stats(db);
  const before = cpu();
  const start = performance.now();
  const end = start + SECONDS * 1000;
  const counts = await runWorkers(WORKERS, () => performance.now() < end, work);
  const elapsed = (performance.now() - start) / 1000;
  const cycles = counts.reduce((a, b) => a + b, 0);
  // Backends that ended during the run took their CPU with them; those kept open (both sides pool) did not.
  const after = cpu();
  const statsAfter = await stats(db);
  const perCycle = (k: keyof Figures['cpuUs']) => ((after[k] - before[k]) * 1e6) / Math.max(cycles, 1);
  return {
    cyclesPerSecond: cycles / elapsed,
    // Less the stats query's own session.
    rollbacks: statsAfter.rollbacks - statsBefore.rollbacks,
    sessions: statsAfter.sessions - statsBefore.sessions - 1,
    cpuUs: { client: perCycle('client'), postgres: Math.max(perCycle('postgres'), 0), ward: perCycle('ward') },
  };
}

/** Raw: the superuser over one connection per worker, CREATE ROLE then DROP ROLE, each autocommitted. */
async function raw(db: PostgresServer, pids: () => Pids, round: number): Promise<Figures> {
  const clients: pg.Client[] = await Promise.all(
    Array.from({ length: WORKERS }, () => db.connect(PG_ROOT, PG_ROOT_PASSWORD)),
  );
  try {
    return await timed(db, pids, async (w, i) => {
      const name = `raw_${round}_${w}_${i}`;
      const password = randomBytes(15).toString('base64url');
      const expiration = new Date(Date.now() + 3_600_000).toISOString();
      const client = clients[w] as pg.Client;
      await client.query(
        CREATE.replace('{{name}}', name).replace('{{password}}', password).replace('{{expiration}}', expiration),
      );
      await client.query(DROP.replace('{{name}}', name));
    });
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

async function ward(db: PostgresServer, server: Running, pids: () => Pids): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: WORKERS });
  try {
    return await timed(db, pids, async () => {
      const issued = await rootCall(agent, server, 'GET', 'database/creds/bench');
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      const revoked = await rootCall(agent, server, 'PUT', 'sys/leases/revoke', { lease_id: issued.body?.lease_id });
      assert.equal(revoked.status, 204, JSON.stringify(revoked.body));
    });
  } finally {
    agent.destroy();
  }
}

function row(name: string, f: Figures, ratio: string, goal: string): string {
  const { client, postgres, ward } = f.cpuUs;
  return `| ${name} | ${f.cyclesPerSecond.toFixed(0)} | ${ratio} | ${goal} | ${client.toFixed(0)} | ${postgres.toFixed(0)} | ${ward.toFixed(0)} | ${f.rollbacks} | ${f.sessions} |`;
}

async function main() {
  const db = await PostgresServer.start();
  let server: Running | undefined;
  try {
    server = await startWardDev();
    await run(db, server);
  } finally {
    await server?.stop();
    await db.stop();
  }
}

async function run(db: PostgresServer, server: Running) {
  // The postmaster is the parent of a backend: one held open for the question.
  const probe = await db.connect(PG_ROOT, PG_ROOT_PASSWORD);
  const backend = Number((await probe.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
  const parent = Number(readFileSync(`/proc/${backend}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
  await probe.end();
  const pids = () => ({ postgres: postgresPids(parent), ward: server.pid });
  assert.equal((await rootApi(server, 'POST', 'sys/mounts/database', { type: 'database' })).status, 204);
  const config = await rootApi(server, 'POST', 'database/config/pg', {
    plugin_name: 'postgresql-database-plugin',
    connection_url: db.templatedUrl,
    username: PG_ROOT,
    password: PG_ROOT_PASSWORD,
    allowed_roles: 'bench',
    max_open_connections: WORKERS,
    max_idle_connections: WORKERS,
  });
  assert.ok(config.status < 300, JSON.stringify(config.body));
  const role = await rootApi(server, 'POST', 'database/roles/bench', {
    db_name: 'pg',
    creation_statements: [CREATE],
    revocation_statements: [DROP],
    default_ttl: '1h',
    max_ttl: '2h',
  });
  assert.equal(role.status, 204, JSON.stringify(role.body));
  const results = { raw: [] as Figures[], ward: [] as Figures[] };
  for (let round = 0; round < ROUNDS; round++) {
    results.raw.push(await raw(db, pids, round));
    results.ward.push(await ward(db, server, pids));
  }
  const left = await db.query("SELECT rolname FROM pg_roles WHERE rolname LIKE 'v-%' OR rolname LIKE 'raw_%'");
  assert.equal(left.length, 0, `roles left behind: ${left.map((r) => r.rolname).join(', ')}`);
  const best = (xs: Figures[]) => xs.reduce((a, b) => (b.cyclesPerSecond > a.cyclesPerSecond ? b : a));
  const [bestRaw, bestWard] = [best(results.raw), best(results.ward)];
  const ratio = bestWard.cyclesPerSecond / bestRaw.cyclesPerSecond;
  console.log(
    `\ndatabase bench: ${WORKERS} workers, ${SECONDS} s per run, best of ${ROUNDS} interleaved rounds, Node ${process.version}`,
  );
  console.log(
    '| workload | cycles/s | ratio to raw pg | goal | client CPU µs/cycle | postgres | ward | rollbacks | sessions opened |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(row('raw pg CREATE ROLE + DROP ROLE', bestRaw, '1.00', ''));
  const verdict = `≥ ${GOAL.toFixed(2)} ${ratio >= GOAL ? 'met' : 'missed'}`;
  console.log(row('database/creds issued + lease revoked', bestWard, ratio.toFixed(2), verdict));
}

await main();
