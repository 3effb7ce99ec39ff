import { Agent, request } from 'node:http';

export interface ProbeOptions {
  /** Requests started per second, whatever the server's pace (an open loop). */
  ratePerSecond: number;
  durationS: number;
  headers?: Record<string, string>;
}

export interface ProbeFigures {
  count: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Latency of GET requests sent at a fixed rate, with microsecond resolution.
 *
 * Why not autocannon here: it keeps its connections saturated (a closed loop), so its latency is
 * mostly its own queue, and it reports whole milliseconds. This asks the question "does other
 * load stall a request?": requests leave on a fixed schedule whether or not earlier ones have
 * been answered, so a stalled server cannot slow the sender down and hide its stall. Each
 * latency runs from the moment the request is sent, so the sender's own timer jitter (a
 * millisecond or so) is not counted against the server.
 */
export async function probeLatency(url: string, options: ProbeOptions): Promise<ProbeFigures> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const latenciesMs: number[] = [];
  const intervalMs = 1000 / options.ratePerSecond;
  const total = Math.round(options.ratePerSecond * options.durationS);
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const sent = performance.now();
    inFlight.push(
      get(url, agent, options.headers ?? {}).then(() => {
        latenciesMs.push(performance.now() - sent);
      }),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  latenciesMs.sort((a, b) => a - b);
  const at = (q: number) => latenciesMs[Math.min(latenciesMs.length - 1, Math.floor(q * latenciesMs.length))] ?? 0;
  return { count: latenciesMs.length, p50Ms: at(0.5), p99Ms: at(0.99) };
}

function get(url: string, agent: Agent, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) resolve();
        else reject(new Error(`${url}: status ${res.statusCode}`));
      });
    });
    req.on('error', reject);
    req.end();
  });
}
