// Subscription reads per second and p99 latency of Ward, as a ratio to a bare node:http server
// sending the same body, both measured in this run on this machine. Each server runs in its own
// process; autocannon drives it from this one over loopback, for a bounded time.
//   BENCH_SECONDS (default 10) per measurement, after a 2 s warm-up; BENCH_CONNECTIONS (default 10).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TOKEN = 'bench-token';
const PATH = '/api/v2/organizations/bench/subscription';
const GOAL = 0.5;

function startServer(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve({ child, url: `http://127.0.0.1:${m[1]}` });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

async function load(url: string, seconds: number) {
  // autocannon's own histogram has whole-millisecond buckets, too coarse for loopback
  // latencies; every response time (fractional ms) is kept here instead.
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${url}${PATH}`,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/vnd.api+json' },
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', (_client, _status, _bytes, responseTimeMs: number) => times.push(responseTimeMs));
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  times.sort((a, b) => a - b);
  const p99Ms = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? Number.NaN;
  return { readsPerSecond: Math.round(result.requests.average), p99Ms: Number(p99Ms.toFixed(3)) };
}

async function measure(script: string, env: Record<string, string>) {
  const { child, url } = await startServer(script, env);
  try {
    await load(url, 2);
    return await load(url, SECONDS);
  } finally {
    child.kill('SIGTERM');
  }
}

async function main() {
  const ward = await startServer('./ward-server.js', { BENCH_TOKEN: TOKEN });
  const res = await fetch(`${ward.url}${PATH}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = await res.text();
  ward.child.kill('SIGTERM');
  if (res.status !== 200) throw new Error(`the subscription read failed: ${res.status} ${body}`);

  const bare = await measure('./bare-server.js', { BENCH_BODY: body });
  const platform = await measure('./ward-server.js', { BENCH_TOKEN: TOKEN });
  const ratio = platform.readsPerSecond / bare.readsPerSecond;
  const p99Ratio = platform.p99Ms / bare.p99Ms;
  const report = {
    benchmark: 'GET /api/v2/organizations/:organization_name/subscription',
    seconds: SECONDS,
    connections: CONNECTIONS,
    bare,
    platform,
    readsPerSecondRatio: Number(ratio.toFixed(3)),
    p99Ratio: Number(p99Ratio.toFixed(2)),
    goal: `reads/s ratio >= ${GOAL}`,
    goalMet: ratio >= GOAL,
  };
  console.log(`platform subscription reads: ${platform.readsPerSecond}/s, p99 ${platform.p99Ms} ms`);
  console.log(`bare node:http:              ${bare.readsPerSecond}/s, p99 ${bare.p99Ms} ms`);
  console.log(`reads/s ratio: ${ratio.toFixed(3)} (goal >= ${GOAL}: ${ratio >= GOAL ? 'met' : 'NOT met'})`);
  console.log(`p99 ratio:     ${p99Ratio.toFixed(2)} (platform p99 / bare p99; lower is better)`);
  const dir = fileURLToPath(new URL('../../../../.bench-results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}platform-subscriptions.json`, `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
