import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { durationSeconds, UsageError } from '@ward/base';
import { create as createTar } from 'tar';
import { ApiError } from '../api.js';
import { COMMON_FLAGS_HELP, type CommandContext, defineCommand, flag, noArgs } from '../command.js';
import { captureLog, serverTargets } from './debug-targets.js';

/** What goes into the archive: file name → API path (a `{seconds}` is the -pprof-duration). */
const CAPTURES: ReadonlyArray<[string, string]> = [
  ['agent-self.json', '/v1/agent/self'],
  ['members.json', '/v1/agent/members'],
  ['host.json', '/v1/agent/host'],
  ['profile.prof', '/v1/agent/pprof/profile?seconds={seconds}'],
  ['heap.prof', '/v1/agent/pprof/heap'],
  ['goroutine.prof', '/v1/agent/pprof/goroutine'],
  ['goroutine.txt', '/v1/agent/pprof/goroutine?debug=1'],
];

/** What is captured again for each server of `-server-id`, under `server/<name>/`. */
const SERVER_CAPTURES: ReadonlyArray<[string, string]> = [
  ['host.json', '/v1/agent/host?server_id={server}'],
  ['profile.prof', '/v1/agent/pprof/profile?seconds={seconds}&server_id={server}'],
  ['heap.prof', '/v1/agent/pprof/heap?server_id={server}'],
  ['goroutine.prof', '/v1/agent/pprof/goroutine?server_id={server}'],
];

/** What is captured again at every `-interval` during `-duration`, under `interval/<n>/`. */
const INTERVAL_CAPTURES: ReadonlyArray<[string, string]> = [
  ['agent-self.json', '/v1/agent/self'],
  ['members.json', '/v1/agent/members'],
];

/** The folder and archive name: `ward-agent-debug-2024-01-02-150405Z`. */
function captureName(nowMs: number): string {
  const iso = new Date(nowMs).toISOString();
  return `ward-agent-debug-${iso.slice(0, 10)}-${iso.slice(11, 19).replace(/:/g, '')}Z`;
}

/**
 * One capture into `dir`. A capture the agent refuses (403 without agent:write or the
 * debug gate, 501 on the wrong agent kind) becomes `<file>.error`, so one closed door
 * does not cost the rest of the archive.
 */
async function capture(ctx: CommandContext, dir: string, file: string, path: string): Promise<boolean> {
  await mkdir(dir, { recursive: true });
  try {
    const res = await ctx.api.request('GET', path);
    await writeFile(join(dir, file), Buffer.from(await res.arrayBuffer()));
    return true;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    await writeFile(join(dir, `${file}.error`), `${err.message}\n`);
    ctx.err.write(`Warning: ${file}: ${err.message}\n`);
    return false;
  }
}

export const operatorDebug = defineCommand({
  name: 'operator debug',
  summary: 'Write a debug archive (self, members, host, profiles) as a .tar.gz',
  help: `Usage: ward-agent operator debug [options]

  Collects the agent's self, members, host data and runtime profiles (CPU, heap,
  goroutine) into ward-agent-debug-<time>.tar.gz. With -server-id, each named
  server's host data, profiles and debug log (for -duration) go under
  server/<name>/; during -duration, self and members are captured again every
  -interval under interval/<n>/. Host data, profiles and logs need a token with
  agent:write (or enable_debug = true with ACLs off); what the agent refuses is
  recorded as <file>.error in the archive.

Options:
  -duration=<dur>          How long to capture logs and intervals (default 0s: one capture)
  -interval=<dur>          Time between interval captures, at most -duration (default 30s)
  -server-id=<ids>         Servers to capture: comma-separated names or IDs, "leader" or "all"
  -output=<dir>            Where to write the archive (default: the current directory)
  -pprof-duration=<dur>    Length of the CPU profile, 1s to 5m (default 1s)

Example:
  ward-agent operator debug -duration=10s -server-id=all -output=/tmp
${COMMON_FLAGS_HELP}`,
  flags: {
    output: flag.string(),
    'pprof-duration': flag.duration(),
    duration: flag.duration(),
    interval: flag.duration(),
    'server-id': flag.string(),
  },
  async run({ flags, args }, ctx) {
    noArgs(args);
    const seconds = durationSeconds(flags['pprof-duration'] ?? 1_000_000_000n);
    if (seconds < 1 || seconds > 300) throw new UsageError('-pprof-duration must be between 1s and 5m');
    const durationMs = Number((flags.duration ?? 0n) / 1_000_000n);
    const intervalMs = Number((flags.interval ?? 30_000_000_000n) / 1_000_000n);
    if (intervalMs < 1000) throw new UsageError('-interval must be at least 1s');
    if (durationMs > 0 && intervalMs > durationMs) throw new UsageError('-interval must not exceed -duration');
    const outDir = resolve(flags.output ?? '.');
    const name = captureName(Date.now());
    const dir = join(outDir, name);
    await mkdir(dir, { recursive: true });
    try {
      let captured = 0;
      for (const [file, path] of CAPTURES) {
        if (await capture(ctx, dir, file, path.replace('{seconds}', String(seconds)))) captured++;
      }
      const servers = await serverTargets(ctx, flags['server-id'] ?? '');
      for (const server of servers) {
        ctx.out.write(`Capturing server ${server}\n`);
        const at = join(dir, 'server', server);
        for (const [file, path] of SERVER_CAPTURES) {
          const p = path.replace('{seconds}', String(seconds)).replace('{server}', encodeURIComponent(server));
          if (await capture(ctx, at, file, p)) captured++;
        }
      }
      // Logs stream for the whole duration while interval snapshots are taken.
      const logs = durationMs > 0 ? servers.map((s) => captureLog(ctx, join(dir, 'server', s), s, durationMs)) : [];
      captured += await captureIntervals(ctx, dir, durationMs, intervalMs);
      await Promise.all(logs);
      if (captured === 0) {
        ctx.err.write('Error: the agent answered none of the captures\n');
        return 1;
      }
      const archive = join(outDir, `${name}.tar.gz`);
      await createTar({ gzip: true, file: archive, cwd: outDir }, [name]);
      ctx.out.write(`Created debug archive: ${archive}\n`);
      return 0;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
});

/**
 * Self and members at 0, interval, 2×interval, … up to `durationMs` (floor(duration/interval)+1
 * snapshots, so the count does not depend on how long each capture takes; none when it is 0).
 */
async function captureIntervals(
  ctx: CommandContext,
  dir: string,
  durationMs: number,
  intervalMs: number,
): Promise<number> {
  if (durationMs <= 0) return 0;
  let captured = 0;
  const start = Date.now();
  const count = Math.floor(durationMs / intervalMs) + 1;
  for (let n = 0; n < count && !ctx.signal.aborted; n++) {
    if (n > 0) await sleep(start + n * intervalMs - Date.now(), ctx.signal);
    const at = join(dir, 'interval', String(n).padStart(4, '0'));
    for (const [file, path] of INTERVAL_CAPTURES) if (await capture(ctx, at, file, path)) captured++;
  }
  return captured;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, ms));
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
