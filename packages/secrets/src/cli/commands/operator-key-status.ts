import { defineCommand } from '../command.js';

/** `ward operator key-status`: the barrier key's term, install time and use, as established. */
export const operatorKeyStatusCommand = defineCommand({
  name: 'operator key-status',
  summary: "Show the barrier encryption key's term, install time and encryption count.",
  usage: '',
  example: 'ward operator key-status',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    const secret = await client.read('sys/key-status');
    const data = (secret?.data ?? {}) as Record<string, unknown>;
    out.fields(
      { 'Key Term': data.term, 'Install Time': data.install_time, 'Encryption Count': data.encryptions },
      secret,
    );
    return undefined;
  },
});
