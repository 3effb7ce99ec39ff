import { defineCommand } from '../command.js';

/** `ward operator rotate`: a new barrier key term; older terms stay readable. */
export const operatorRotateCommand = defineCommand({
  name: 'operator rotate',
  summary: 'Rotate the barrier encryption key: new writes use a new key term.',
  usage: '',
  example: 'ward operator rotate',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    await client.write('sys/rotate', {});
    const status = await client.read('sys/key-status');
    const data = (status?.data ?? {}) as Record<string, unknown>;
    out.success(`Rotated key\n\nKey Term        ${data.term}\nInstall Time    ${data.install_time}`);
    return undefined;
  },
});
