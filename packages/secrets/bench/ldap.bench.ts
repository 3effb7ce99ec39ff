import assert from 'node:assert/strict';
import { Agent } from 'node:http';
import { Client } from 'ldapts';
import { ENGINE_DN, ENGINE_PASSWORD, SUFFIX, startSlapd } from '../test/slapd.js';
import { cpuSeconds, type Running, rootApi, rootCall, runWorkers, startWardDev } from './bench-support.js';

/**
 * Dynamic LDAP credentials issued and revoked per second (`GET ldap/creds/:role` then
 * `PUT sys/leases/revoke`) on a dev server against a local slapd, as a ratio to raw
 * `ldapts` add + delete of the same kind of entry, with the engine's bind account, in the
 * same run. Goal: at least 0.5. Both sides run CONCURRENCY workers for PER_WORKER cycles.
 * The CPU each process spent per cycle says where the time goes on a shared machine.
 */
const CONCURRENCY = Number(process.env.BENCH_LDAP_WORKERS ?? 8);
// 400 cycles a worker (3,200 a round, several seconds): with 60 a round lasted 0.6 s and measured the
// server's JIT warm-up, not its steady state (ward's CPU per cycle 1,250 µs then, 500 µs once warm).
const PER_WORKER = Number(process.env.BENCH_LDAP_CYCLES ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

interface Figures {
  cyclesPerSecond: number;
  /** CPU µs per cycle: of the bench process (the client side), slapd, and the ward server. */
  cpuUs: { client: number; slapd: number; ward: number };
}

async function timed(
  pids: { slapd: number; ward: number },
  work: (worker: number, i: number) => Promise<void>,
): Promise<Figures> {
  const cpu = () => ({
    client: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
    slapd: cpuSeconds(pids.slapd),
    ward: cpuSeconds(pids.ward),
  });
  const before = cpu();
  const start = performance.now();
  await runWorkers(CONCURRENCY, (i) => i < PER_WORKER, work);
  const cycles = CONCURRENCY * PER_WORKER;
  const after = cpu();
  const perCycle = (k: keyof Figures['cpuUs']) => ((after[k] - before[k]) * 1e6) / cycles;
  return {
    cyclesPerSecond: cycles / ((performance.now() - start) / 1000),
    cpuUs: { client: perCycle('client'), slapd: perCycle('slapd'), ward: perCycle('ward') },
  };
}

/** Raw: one bound connection per worker (the fairest case for the baseline), add then delete. */
async function raw(url: string, pids: { slapd: number; ward: number }, round: number): Promise<Figures> {
  const clients = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = new Client({ url });
      await c.bind(ENGINE_DN, ENGINE_PASSWORD);
      return c;
    }),
  );
  try {
    return await timed(pids, async (w, i) => {
      const cn = `raw_${round}_${w}_${i}`;
      const dn = `cn=${cn},ou=users,${SUFFIX}`;
      await clients[w]?.add(dn, { objectClass: 'inetOrgPerson', cn, sn: 'x', userPassword: 'p'.repeat(64) });
      await clients[w]?.del(dn);
    });
  } finally {
    await Promise.all(clients.map((c) => c.unbind()));
  }
}

/** Raw, connecting and binding for every cycle (as the established engine does per operation): for context only. */
async function rawConnectEach(url: string, pids: { slapd: number; ward: number }, round: number): Promise<Figures> {
  return timed(pids, async (w, i) => {
    const client = new Client({ url });
    try {
      await client.bind(ENGINE_DN, ENGINE_PASSWORD);
      const cn = `each_${round}_${w}_${i}`;
      const dn = `cn=${cn},ou=users,${SUFFIX}`;
      await client.add(dn, { objectClass: 'inetOrgPerson', cn, sn: 'x', userPassword: 'p'.repeat(64) });
      await client.del(dn);
    } finally {
      await client.unbind();
    }
  });
}

async function ward(server: Running, pids: { slapd: number; ward: number }): Promise<Figures> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  try {
    return await timed(pids, async () => {
      const issued = await rootCall(agent, server, 'GET', 'ldap/creds/bench');
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      const revoked = await rootCall(agent, server, 'PUT', 'sys/leases/revoke', { lease_id: issued.body?.lease_id });
      assert.equal(revoked.status, 204, JSON.stringify(revoked.body));
    });
  } finally {
    agent.destroy();
  }
}

function row(name: string, f: Figures, ratio: string, goal: string): string {
  const { client, slapd, ward } = f.cpuUs;
  return `| ${name} | ${f.cyclesPerSecond.toFixed(0)} | ${ratio} | ${goal} | ${client.toFixed(0)} | ${slapd.toFixed(0)} | ${ward.toFixed(0)} |`;
}

async function main() {
  const slapd = await startSlapd();
  const server = await startWardDev();
  const pids = { slapd: slapd.pid, ward: server.pid };
  try {
    await rootApi(server, 'POST', 'sys/mounts/ldap', { type: 'ldap' });
    await rootApi(server, 'POST', 'ldap/config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url });
    const role = await rootApi(server, 'POST', 'ldap/role/bench', {
      creation_ldif: `dn: cn={{.Username}},ou=users,${SUFFIX}\nobjectClass: inetOrgPerson\ncn: {{.Username}}\nsn: x\nuserPassword: {{.Password}}\n`,
      deletion_ldif: `dn: cn={{.Username}},ou=users,${SUFFIX}\nchangetype: delete\n`,
      username_template: 'b_{{random 12}}',
    });
    assert.equal(role.status, 204);
    const results = { raw: [] as Figures[], ward: [] as Figures[], each: [] as Figures[] };
    for (let round = 0; round < ROUNDS; round++) {
      results.raw.push(await raw(slapd.url, pids, round));
      results.ward.push(await ward(server, pids));
      results.each.push(await rawConnectEach(slapd.url, pids, round));
    }
    const best = (xs: Figures[]) => xs.reduce((a, b) => (b.cyclesPerSecond > a.cyclesPerSecond ? b : a));
    const [bestRaw, bestWard] = [best(results.raw), best(results.ward)];
    const ratio = bestWard.cyclesPerSecond / bestRaw.cyclesPerSecond;
    console.log(
      `\nldap bench: ${CONCURRENCY} workers x ${PER_WORKER} cycles, best of ${ROUNDS} interleaved rounds, Node ${process.version}`,
    );
    console.log('| workload | cycles/s | ratio to raw ldapts | goal | client CPU µs/cycle | slapd | ward |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    console.log(row('raw ldapts add + delete', bestRaw, '1.00', ''));
    const verdict = `≥ 0.50 ${ratio >= 0.5 ? 'met' : 'missed'}`;
    console.log(row('dynamic credential issued + revoked', bestWard, ratio.toFixed(2), verdict));
    const bestEach = best(results.each);
    const eachRatio = (bestEach.cyclesPerSecond / bestRaw.cyclesPerSecond).toFixed(2);
    console.log(row('(context) raw ldapts, connect + bind + add + delete + unbind', bestEach, eachRatio, ''));
  } finally {
    await server.stop();
    await slapd.stop();
  }
}

await main();
