import assert from 'node:assert/strict';
import { Client } from 'ldapts';
import { ENGINE_DN, ENGINE_PASSWORD, SUFFIX, startSlapd } from '../test/slapd.js';
import { type Running, rootApi, startWardDev } from './bench-support.js';

/**
 * Dynamic LDAP credentials issued and revoked per second (`GET ldap/creds/:role` then
 * `PUT sys/leases/revoke`) on a dev server against a local slapd, as a ratio to raw
 * `ldapts` add + delete of the same kind of entry, with the engine's bind account, in the
 * same run. Goal: at least 0.5. Both sides run CONCURRENCY workers for PER_WORKER cycles.
 */
const CONCURRENCY = Number(process.env.BENCH_LDAP_WORKERS ?? 8);
const PER_WORKER = Number(process.env.BENCH_LDAP_CYCLES ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

async function timed(work: (worker: number, i: number) => Promise<void>): Promise<number> {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      for (let i = 0; i < PER_WORKER; i++) await work(w, i);
    }),
  );
  return (CONCURRENCY * PER_WORKER) / ((performance.now() - start) / 1000);
}

/** Raw: one bound connection per worker (the fairest case for the baseline), add then delete. */
async function raw(url: string, round: number): Promise<number> {
  const clients = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = new Client({ url });
      await c.bind(ENGINE_DN, ENGINE_PASSWORD);
      return c;
    }),
  );
  try {
    return await timed(async (w, i) => {
      const cn = `raw_${round}_${w}_${i}`;
      const dn = `cn=${cn},ou=users,${SUFFIX}`;
      await clients[w]?.add(dn, { objectClass: 'inetOrgPerson', cn, sn: 'x', userPassword: 'p'.repeat(64) });
      await clients[w]?.del(dn);
    });
  } finally {
    await Promise.all(clients.map((c) => c.unbind()));
  }
}

async function ward(server: Running): Promise<number> {
  return timed(async () => {
    const issued = await rootApi(server, 'GET', 'ldap/creds/bench');
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const revoked = await rootApi(server, 'PUT', 'sys/leases/revoke', { lease_id: issued.body.lease_id });
    assert.equal(revoked.status, 204);
  });
}

async function main() {
  const slapd = await startSlapd();
  const server = await startWardDev();
  try {
    await rootApi(server, 'POST', 'sys/mounts/ldap', { type: 'ldap' });
    await rootApi(server, 'POST', 'ldap/config', { binddn: ENGINE_DN, bindpass: ENGINE_PASSWORD, url: slapd.url });
    const role = await rootApi(server, 'POST', 'ldap/role/bench', {
      creation_ldif: `dn: cn={{.Username}},ou=users,${SUFFIX}\nobjectClass: inetOrgPerson\ncn: {{.Username}}\nsn: x\nuserPassword: {{.Password}}\n`,
      deletion_ldif: `dn: cn={{.Username}},ou=users,${SUFFIX}\nchangetype: delete\n`,
      username_template: 'b_{{random 12}}',
    });
    assert.equal(role.status, 204);
    const results = { raw: [] as number[], ward: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      results.raw.push(await raw(slapd.url, round));
      results.ward.push(await ward(server));
    }
    const best = (xs: number[]) => Math.max(...xs);
    const ratio = best(results.ward) / best(results.raw);
    console.log(
      `\nldap bench: ${CONCURRENCY} workers x ${PER_WORKER} cycles, best of ${ROUNDS} interleaved rounds, Node ${process.version}`,
    );
    console.log('| workload | cycles/s | ratio to raw ldapts | goal |');
    console.log('|---|---:|---:|---:|');
    console.log(`| raw ldapts add + delete | ${best(results.raw).toFixed(0)} | 1.00 | |`);
    console.log(
      `| dynamic credential issued + revoked | ${best(results.ward).toFixed(0)} | ${ratio.toFixed(2)} | ≥ 0.50 ${ratio >= 0.5 ? 'met' : 'missed'} |`,
    );
  } finally {
    await server.stop();
    await slapd.stop();
  }
}

await main();
