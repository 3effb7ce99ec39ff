import { setTimeout as sleep } from 'node:timers/promises';
import { CliError, type CommandContext } from './command.js';

/** How often a move asks whether it is done. */
const POLL_INTERVAL_MS = 200;

/**
 * `secrets move` and `auth move`: start the move at `sys/remount` and wait for its outcome at
 * `sys/remount/status/<id>`, as the established CLI does (the server moves in the background).
 * Both paths get a trailing `/`; an auth method's paths are given with their `auth/` prefix.
 */
export async function moveMount(
  { client, out }: CommandContext,
  what: 'secrets engine' | 'auth method',
  source: string,
  destination: string,
): Promise<void> {
  const from = withSlash(source);
  const to = withSlash(destination);
  const started = await client.write('sys/remount', { from, to });
  const id = String(started?.data?.migration_id ?? '');
  const done = `moving ${what} ${from} to ${to}, with migration ID ${id}`;
  out.note(`Started ${done}`);
  for (;;) {
    const status = await client.read(`sys/remount/status/${id}`);
    const info = status?.data?.migration_info as { status?: string } | undefined;
    if (info?.status === 'success') break;
    if (info?.status === 'failure') throw new CliError(`Failure! Error encountered ${done}`, 2);
    await sleep(POLL_INTERVAL_MS);
  }
  out.success(`Finished ${done}`);
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}
