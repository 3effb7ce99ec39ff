import { defineCommand } from '../command.js';

/** `ward operator seal`: needs a root token or `sudo` on `sys/seal`. */
export const operatorSealCommand = defineCommand({
  name: 'operator seal',
  summary: 'Seal the server: it forgets its keys and answers 503 until unsealed.',
  usage: '',
  example: 'ward operator seal',
  flags: {},
  args: { min: 0, max: 0 },
  async run(_input, { client, out }) {
    await client.sys.seal();
    out.success('Server is sealed.');
    return undefined;
  },
});
