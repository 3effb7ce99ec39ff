import { best, type Figures, measure, ROUNDS, report, startBaseline, startWardDev } from './bench-support.js';

/**
 * KV v2 read and write throughput of a dev server, each as a ratio to a bare `node:http`
 * server measured in the same run on the same machine. Servers run in their own
 * processes; autocannon drives them from this one.
 */
async function main() {
  const baseline = await startBaseline();
  const ward = await startWardDev();
  try {
    const headers = { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' };
    const secret = JSON.stringify({ data: { password: 'correct horse battery staple' } });
    await fetch(`${ward.url}/v1/secret/data/bench/read`, { method: 'POST', headers, body: secret });

    // Interleaved rounds, so a burst of other load on the machine hits every workload alike.
    const rounds: Record<string, Figures[]> = { base: [], read: [], write: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.base?.push(await measure('node:http baseline', baseline, { url: baseline.url }));
      rounds.read?.push(await measure('KV v2 read', ward, { url: `${ward.url}/v1/secret/data/bench/read`, headers }));
      rounds.write?.push(
        await measure('KV v2 write', ward, {
          url: `${ward.url}/v1/secret/data/bench/write`,
          method: 'POST',
          headers,
          body: secret,
        }),
      );
    }
    const [base, read, write] = [rounds.base, rounds.read, rounds.write].map((r) => best(r ?? []));
    report('secrets bench', base as Figures, [read as Figures, write as Figures], {
      'KV v2 read': 0.6,
      'KV v2 write': 0.3,
    });
  } finally {
    await Promise.all([baseline.stop(), ward.stop()]);
  }
}

await main();
