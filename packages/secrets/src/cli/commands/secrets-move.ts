import { defineCommand } from '../command.js';
import { moveMount } from '../mount-move.js';

/** `ward secrets move SOURCE DESTINATION`: moves a mount (its data kept, its leases revoked). */
export const secretsMoveCommand = defineCommand({
  name: 'secrets move',
  summary: 'Move a secrets engine to another path; its data moves with it, its leases are revoked.',
  usage: 'SOURCE DESTINATION',
  example: 'ward secrets move apps/ applications/',
  flags: {},
  args: { min: 2, max: 2 },
  async run({ args: [from = '', to = ''] }, ctx) {
    await moveMount(ctx, 'secrets engine', from, to);
    return undefined;
  },
});
