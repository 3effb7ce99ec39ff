import { defineCommand } from '../command.js';

/** `ward audit disable file/`: removes an audit device. */
export const auditDisableCommand = defineCommand({
  name: 'audit disable',
  summary: 'Disable an audit device.',
  usage: 'PATH',
  example: 'ward audit disable file/',
  flags: {},
  args: { min: 1, max: 1 },
  async run({ args: [path = ''] }, { client, out }) {
    const clean = path.replace(/^\/+|\/+$/g, '');
    await client.delete(`sys/audit/${clean}`);
    out.success(`Disabled audit device (if it was enabled) at: ${clean}/`);
    return undefined;
  },
});
