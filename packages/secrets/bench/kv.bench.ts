import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * KV v2 read and write throughput of a dev server, each as a ratio to a bare `node:http`
 * server measured in the same run on the same machine. Servers run in their own
 * processes; autocannon drives them from this one.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = 16;
const WARD_BIN = fileURLToPath(new URL('../../../../bin/ward', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline-server.js', import.meta.url));

interface Running {
  url: string;
  stop(): Promise<void>;
}

function startProcess(args: string[], ready: RegExp, toUrl: (m: RegExpMatchArray) => string): Promise<Running> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = output.match(ready);
      if (m) {
        resolve({
          url: toUrl(m),
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before ready:\n${output}`)));
  });
}

async function measure(name: string, options: autocannon.Options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  return { name, rps: result.requests.average, p99Ms: result.latency.p99 };
}

async function main() {
  const baseline = await startProcess([BASELINE], /listening on (\d+)/, (m) => `http://127.0.0.1:${m[1]}`);
  const ward = await startProcess(
    [WARD_BIN, 'server', '-dev', '-dev-root-token-id=root', '-dev-listen-address=127.0.0.1:0'],
    /export VAULT_ADDR='([^']+)'/,
    (m) => m[1] as string,
  );
  try {
    const headers = { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' };
    const secret = JSON.stringify({ data: { password: 'correct horse battery staple' } });
    await fetch(`${ward.url}/v1/secret/data/bench/read`, { method: 'POST', headers, body: secret });

    const base = await measure('node:http baseline', { url: baseline.url });
    const read = await measure('KV v2 read', { url: `${ward.url}/v1/secret/data/bench/read`, headers });
    const write = await measure('KV v2 write', {
      url: `${ward.url}/v1/secret/data/bench/write`,
      method: 'POST',
      headers,
      body: secret,
    });
    report(base, [read, write], { 'KV v2 read': 0.6, 'KV v2 write': 0.3 });
  } finally {
    await Promise.all([baseline.stop(), ward.stop()]);
  }
}

function report(
  base: { rps: number; p99Ms: number },
  rows: Array<{ name: string; rps: number; p99Ms: number }>,
  goals: Record<string, number>,
) {
  console.log(`\nsecrets bench: ${CONNECTIONS} connections, ${DURATION_S} s each, Node ${process.version}`);
  console.log('| workload | req/s | ratio to baseline | goal | p99 ms | p99 ratio |');
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(`| node:http baseline | ${base.rps.toFixed(0)} | 1.00 | | ${base.p99Ms} | 1.00 |`);
  for (const r of rows) {
    const ratio = r.rps / base.rps;
    const goal = goals[r.name] ?? 0;
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${ratio.toFixed(2)} | ≥ ${goal.toFixed(2)} ${ratio >= goal ? 'met' : 'MISSED'} | ${r.p99Ms} | ${(r.p99Ms / Math.max(base.p99Ms, 1)).toFixed(2)} |`,
    );
  }
}

await main();
