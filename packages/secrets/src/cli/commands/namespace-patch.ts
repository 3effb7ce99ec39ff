import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { parsePairs } from '../input.js';

/** `ward namespace patch -custom-metadata=k=v -remove-custom-metadata=old NAME`. */
export const namespacePatchCommand = defineCommand({
  name: 'namespace patch',
  summary: "Change a child namespace's custom metadata.",
  usage: 'NAME',
  example: 'ward namespace patch -custom-metadata=owner=ops -remove-custom-metadata=team team',
  flags: {
    'custom-metadata': flag.list('K=V to set (repeatable).'),
    'remove-custom-metadata': flag.list('Key to remove (repeatable).'),
  },
  args: { min: 1, max: 1 },
  async run({ flags, args: [name = ''] }, { client, out }) {
    const set = parsePairs(flags['custom-metadata'], 'custom-metadata') ?? {};
    const removed = Object.fromEntries(flags['remove-custom-metadata'].map((k) => [k, null]));
    const customMetadata = { ...set, ...removed };
    if (Object.keys(customMetadata).length === 0)
      throw new UsageError('nothing to change: give -custom-metadata or -remove-custom-metadata');
    const secret = await client.patch(`sys/namespaces/${name.replace(/^\/+|\/+$/g, '')}`, {
      custom_metadata: customMetadata,
    });
    if (secret?.data) out.secret(secret);
    else out.success(`Patched namespace: ${name}`);
    return undefined;
  },
});
