import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface WrkFigures {
  rps: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
}

/**
 * One run of Debian's `wrk` (`apt-get install wrk`): a C load generator with one thread, so the
 * load generator takes as little of the shared machine as it can. `script` is Lua (wrk's
 * `request()` hook) when each request must differ, or sets a method and body.
 */
export async function runWrk(
  url: string,
  options: { durationS: number; connections: number; headers: Record<string, string>; script?: string },
): Promise<WrkFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'ward-wrk-'));
  try {
    const args = ['-t1', `-c${options.connections}`, `-d${options.durationS}s`, '--latency'];
    for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}: ${value}`);
    // wrk counts answers ≥ 400 in its summary; a Lua `response` hook would slow it down.
    const script = `${options.script ?? ''}\n${STATUS_COUNT}`;
    await writeFile(join(dir, 'bench.lua'), script);
    args.push('-s', join(dir, 'bench.lua'), url);
    const { stdout } = await run('wrk', args, { maxBuffer: 1 << 20 });
    return parse(stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const STATUS_COUNT = `
done = function(summary) io.write(string.format("non2xx %d\\n", summary.errors.status)) end
`;

function parse(stdout: string): WrkFigures {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  const scale = p99?.[2] === 'us' ? 1e-3 : p99?.[2] === 's' ? 1e3 : 1;
  const non2xx = Number(/non2xx (\d+)/.exec(stdout)?.[1] ?? 0);
  if (!Number.isFinite(rps) || !p99) throw new Error(`unexpected wrk output:\n${stdout}`);
  return { rps, p99Ms: Number(p99[1]) * scale, requests, non2xx };
}
