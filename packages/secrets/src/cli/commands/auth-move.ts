import { defineCommand } from '../command.js';
import { moveMount } from '../mount-move.js';

/** `ward auth move auth/SOURCE auth/DESTINATION`: moves an auth method (its configuration kept, its leases revoked). */
export const authMoveCommand = defineCommand({
  name: 'auth move',
  summary: 'Move an auth method to another path; its configuration moves with it, its leases are revoked.',
  usage: 'SOURCE DESTINATION',
  example: 'ward auth move auth/approle/ auth/apps/',
  description:
    'Both paths carry the auth/ prefix, as in sys/remount: auth/approle/ names the method enabled at approle/.',
  flags: {},
  args: { min: 2, max: 2 },
  async run({ args: [from = '', to = ''] }, ctx) {
    await moveMount(ctx, 'auth method', from, to);
    return undefined;
  },
});
