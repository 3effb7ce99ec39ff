import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MembersResponse } from '../../members.js';
import { ApiError } from '../api.js';
import type { CommandContext } from '../command.js';

/**
 * The servers `-server-id` names: `all` is every alive server of the pool, `leader` the
 * leader; anything else is a comma-separated list of server names or IDs, kept as written.
 */
export async function serverTargets(ctx: CommandContext, spec: string): Promise<string[]> {
  const wanted = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!wanted.includes('all')) return wanted;
  const pool = await ctx.api.get<MembersResponse>('/v1/agent/members');
  return pool.Members.filter((m) => m.Tags?.role === 'nomad' && m.Status === 'alive')
    .map((m) => m.Name)
    .sort();
}

/**
 * Streams `server`'s log at debug level into `file` for `durationMs` (the established
 * bundle's `monitor.log`); a refusal becomes `monitor.log.error`, as the other captures do.
 */
export async function captureLog(ctx: CommandContext, dir: string, server: string, durationMs: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const q = new URLSearchParams({ log_level: 'debug', plain: 'true', server_id: server });
  const stop = AbortSignal.any([ctx.signal, AbortSignal.timeout(durationMs)]);
  try {
    const res = await ctx.api.request('GET', `/v1/agent/monitor?${q}`, undefined, stop);
    if (res.body) await pipeline(res.body, createWriteStream(join(dir, 'monitor.log')), { signal: stop });
  } catch (err) {
    if (stop.aborted && !(err instanceof ApiError)) return;
    if (!(err instanceof ApiError)) throw err;
    await writeFile(join(dir, 'monitor.log.error'), `${err.message}\n`);
    ctx.err.write(`Warning: ${server}: monitor.log: ${err.message}\n`);
  }
}
