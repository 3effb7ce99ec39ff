import { defineCommand, flag } from '../command.js';
import { parsePairs } from '../input.js';

/** `ward namespace create NAME`: `POST sys/namespaces/NAME` (below the current `-namespace`). */
export const namespaceCreateCommand = defineCommand({
  name: 'namespace create',
  summary: 'Create a child namespace of the current one.',
  usage: 'NAME',
  example: 'ward namespace create -custom-metadata=owner=ops team',
  flags: { 'custom-metadata': flag.list('Metadata K=V.') },
  args: { min: 1, max: 1 },
  async run({ flags, args: [name = ''] }, { client, out }) {
    const secret = await client.sys.namespaces.create(name, parsePairs(flags['custom-metadata'], 'custom-metadata'));
    if (secret?.data) out.secret(secret);
    else out.success(`Created namespace: ${name}`);
    return undefined;
  },
});
