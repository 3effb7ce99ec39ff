import { setTimeout as sleep } from 'node:timers/promises';
import { CliError, defineCommand } from '../command.js';

/** How often `secrets move` asks whether the move is done. */
const POLL_INTERVAL_MS = 200;

/** `ward secrets move SOURCE DESTINATION`: moves a mount (its data kept, its leases revoked). */
export const secretsMoveCommand = defineCommand({
  name: 'secrets move',
  summary: 'Move a secrets engine to another path; its data moves with it, its leases are revoked.',
  usage: 'SOURCE DESTINATION',
  example: 'ward secrets move apps/ applications/',
  flags: {},
  args: { min: 2, max: 2 },
  async run({ args: [from = '', to = ''] }, { client, out }) {
    const started = await client.write('sys/remount', { from, to });
    const id = String(started?.data?.migration_id ?? '');
    out.note(`Started moving secrets engine ${from} to ${to}, with migration ID ${id}`);
    // The server moves the mount in the background; the established CLI waits for the outcome.
    for (;;) {
      const status = await client.read(`sys/remount/status/${id}`);
      const info = status?.data?.migration_info as { status?: string } | undefined;
      if (info?.status === 'success') break;
      if (info?.status === 'failure') throw new CliError(`moving ${from} to ${to} failed`, 2);
      await sleep(POLL_INTERVAL_MS);
    }
    out.success(`Finished moving secrets engine ${from} to ${to}, with migration ID ${id}`);
    return undefined;
  },
});
