import { defineCommand } from '../command.js';

/** `ward operator step-down`: the active server gives up its lock; another server takes over. */
export const operatorStepDownCommand = defineCommand({
  name: 'operator step-down',
  summary: 'Make the active server step down, so that a standby takes over (HA storage only).',
  usage: '',
  example: 'ward operator step-down',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    await client.write('sys/step-down', {});
    out.success(`Stepped down: ${client.address}`);
    return undefined;
  },
});
