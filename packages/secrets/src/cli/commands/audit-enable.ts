import { defineCommand, flag } from '../command.js';
import { parseDataArgs } from '../input.js';

/** `ward audit enable file file_path=/var/log/ward-audit.log`: adds an audit device. */
export const auditEnableCommand = defineCommand({
  name: 'audit enable',
  summary: 'Enable an audit device (file or socket); options are K=V pairs.',
  usage: 'TYPE [K=V ...]',
  example: 'ward audit enable file file_path=/var/log/ward-audit.log',
  flags: {
    path: flag.string('Where to enable it (default: the type).'),
    description: flag.string('Human-readable description.'),
    local: flag.bool('Not replicated (accepted for compatibility).'),
  },
  args: { min: 1 },
  async run({ flags, args: [type = '', ...pairs] }, ctx) {
    const options = await parseDataArgs(pairs, ctx);
    const path = (flags.path ?? type).replace(/^\/+|\/+$/g, '');
    await ctx.client.write(`sys/audit/${path}`, {
      type,
      description: flags.description ?? '',
      local: flags.local,
      options,
    });
    ctx.out.success(`Enabled the ${type} audit device at: ${path}/`);
    return undefined;
  },
});
