import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { durationSeconds, UsageError } from '@ward/base';
import { create as createTar } from 'tar';
import { ApiError } from '../api.js';
import { COMMON_FLAGS_HELP, type Command, type CommandContext, flagDuration, flagString, noArgs } from '../command.js';

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

export const operatorDebug: Command = {
  name: 'operator debug',
  synopsis: 'Write a debug archive (self, members, host, profiles) as a .tar.gz',
  help: `Usage: ward-agent operator debug [options]

  Collects the agent's self, members, host data and runtime profiles (CPU, heap,
  goroutine) into ward-agent-debug-<time>.tar.gz. Host data and profiles need a
  token with agent:write (or enable_debug = true with ACLs off); what the agent
  refuses is recorded as <file>.error in the archive.

Options:
  -output=<dir>            Where to write the archive (default: the current directory)
  -pprof-duration=<dur>    Length of the CPU profile, 1s to 5m (default 1s)

Example:
  ward-agent operator debug -output=/tmp -pprof-duration=5s
${COMMON_FLAGS_HELP}`,
  flags: new Map([
    ['output', 'string'],
    ['pprof-duration', 'duration'],
  ]),
  async run(ctx) {
    noArgs(ctx);
    const seconds = durationSeconds(flagDuration(ctx, 'pprof-duration', 1_000_000_000n));
    if (seconds < 1 || seconds > 300) throw new UsageError('-pprof-duration must be between 1s and 5m');
    const outDir = resolve(flagString(ctx, 'output', '.'));
    const name = captureName(Date.now());
    const dir = join(outDir, name);
    await mkdir(dir, { recursive: true });
    try {
      let captured = 0;
      for (const [file, path] of CAPTURES) {
        if (await capture(ctx, dir, file, path.replace('{seconds}', String(seconds)))) captured++;
      }
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
};
