import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * What the HTTP benches share: the dev server and the bare `node:http` baseline, each in
 * its own process, driven by autocannon from the bench's process, and one report format
 * (each workload as a ratio to the baseline measured in the same run).
 */
export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
export const CONNECTIONS = 16;
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARD_BIN = fileURLToPath(new URL('../../../../bin/ward', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline-server.js', import.meta.url));

export interface Running {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** CPU seconds (user + system) a process has used so far; Linux only, 0 elsewhere. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * Starts `args` as a process: a path ending in `.js` under this Node, anything else (bin/ward) as
 * the executable it is, so the server runs exactly as operators start it, with the Node flags its
 * launcher line adds (`exec` keeps the pid, whose CPU time the benches read).
 */
function startProcess(args: string[], ready: RegExp, toUrl: (m: RegExpMatchArray) => string): Promise<Running> {
  const [command, ...rest] = args as [string, ...string[]];
  const child = command.endsWith('.js')
    ? spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(command, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = output.match(ready);
      if (m) {
        resolve({
          url: toUrl(m),
          pid: child.pid ?? 0,
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

/** `ward proxy -config=<file>`; resolves once its (single) listener is up. */
export function startWardProxy(configFile: string): Promise<Running> {
  return startProcess(
    [WARD_BIN, 'proxy', `-config=${configFile}`],
    /proxy listening: url=(\S+)/,
    (m) => m[1] as string,
  );
}

/** The bare `node:http` server every figure is compared with. */
export function startBaseline(): Promise<Running> {
  return startProcess([BASELINE], /listening on (\d+)/, (m) => `http://127.0.0.1:${m[1]}`);
}

/** `ward server -dev` with root token `root`, on a free port. */
export function startWardDev(): Promise<Running> {
  return startProcess(
    [WARD_BIN, 'server', '-dev', '-dev-root-token-id=root', '-dev-listen-address=127.0.0.1:0'],
    /export VAULT_ADDR='([^']+)'/,
    (m) => m[1] as string,
  );
}

/** `ward server -config=<file>` (uninitialised); resolves once its first listener is up. */
export function startWardWithConfig(configFile: string): Promise<Running> {
  return startProcess(
    [WARD_BIN, 'server', `-config=${configFile}`],
    /Listener 1: tcp \(addr: "([^"]+)"/,
    (m) => `http://${m[1]}`,
  );
}

export interface Figures {
  name: string;
  rps: number;
  p99Ms: number;
  /** Server CPU time per request: steadier than throughput when the load generator shares the machine. */
  cpuUsPerRequest: number;
}

/**
 * One autocannon run against `server`; any non-2xx response or error fails the bench. With several
 * processes (a proxy and its server), the CPU per request is theirs together.
 */
export async function measure(
  name: string,
  server: Pick<Running, 'pid'> | Array<Pick<Running, 'pid'>>,
  options: autocannon.Options,
): Promise<Figures> {
  const pids = (Array.isArray(server) ? server : [server]).map((s) => s.pid);
  const cpuOf = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const cpuBefore = cpuOf();
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx responses, ${result.errors} errors`);
  }
  const cpuUsPerRequest = ((cpuOf() - cpuBefore) * 1e6) / Math.max(result.requests.total, 1);
  return { name, rps: result.requests.average, p99Ms: result.latency.p99, cpuUsPerRequest };
}

/** Of several rounds, the one with the most requests per second (the least disturbed by other load). */
export function best(rounds: Figures[]): Figures {
  return rounds.reduce((a, b) => (b.rps > a.rps ? b : a));
}

/** Prints the figures as a markdown table, each workload against its goal ratio in `goals`. */
export function report(title: string, base: Figures, rows: Figures[], goals: Record<string, number>) {
  console.log(
    `\n${title}: ${CONNECTIONS} connections, ${DURATION_S} s per run, best of ${ROUNDS} interleaved rounds, Node ${process.version}`,
  );
  console.log('| workload | req/s | ratio to baseline | goal | p99 ms | p99 ratio | server CPU µs/req |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| ${base.name} | ${base.rps.toFixed(0)} | 1.00 | | ${base.p99Ms} | 1.00 | ${base.cpuUsPerRequest.toFixed(1)} |`,
  );
  for (const r of rows) {
    const ratio = r.rps / base.rps;
    const goal = goals[r.name] ?? 0;
    const p99Ratio = (r.p99Ms / Math.max(base.p99Ms, 1)).toFixed(2);
    const verdict = ratio >= goal ? 'met' : 'missed';
    console.log(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${ratio.toFixed(2)} | ≥ ${goal.toFixed(2)} ${verdict} | ${r.p99Ms} | ${p99Ratio} | ${r.cpuUsPerRequest.toFixed(1)} |`,
    );
  }
}

/** One JSON request to `/v1/<path>` of a dev server with the root token `root`; the parsed body. */
export async function rootApi(ward: Running, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ward.url}/v1/${path}`, {
    method,
    headers: { 'X-Vault-Token': 'root', 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * A root request over a kept-alive connection of `agent`: `fetch` costs the bench process several
 * times the CPU of `node:http`, and on a shared two-core machine the client's CPU is taken from the
 * server's.
 */
export function rootCall(agent: Agent, server: Running, method: string, path: string, body?: unknown) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; body: Record<string, unknown> | undefined }>((resolve, reject) => {
    const req = request(`${server.url}/v1/${path}`, {
      method,
      agent,
      headers: { 'X-Vault-Token': 'root', ...(payload ? { 'Content-Type': 'application/json' } : {}) },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.end(payload);
  });
}

/**
 * `workers` concurrent loops, each calling `work(worker, i)` one cycle after another while
 * `goesOn(i)` holds (a count, or a deadline); the cycles each worker ran.
 */
export function runWorkers(
  workers: number,
  goesOn: (i: number) => boolean,
  work: (worker: number, i: number) => Promise<void>,
): Promise<number[]> {
  return Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      let i = 0;
      for (; goesOn(i); i++) await work(w, i);
      return i;
    }),
  );
}
