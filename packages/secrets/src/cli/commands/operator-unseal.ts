import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { sealFields } from '../seal-fields.js';

/**
 * `ward operator unseal [KEY]`: submits one key share. Without KEY it is asked for at the
 * terminal without echo (or read as one line of stdin); `-` reads all of stdin.
 */
export const operatorUnsealCommand = defineCommand({
  name: 'operator unseal',
  summary: 'Submit one unseal key share; prints the progress.',
  usage: '[KEY | -]',
  example: 'ward operator unseal',
  description:
    'With an auto seal the keys are recovery keys. With -migrate they are the old seal\'s keys, toward a seal migration (the configuration names the new seal and, for an old auto seal, keeps its stanza with disabled = "true").',
  flags: {
    reset: flag.bool('Discard the shares submitted so far.'),
    migrate: flag.bool('The key is part of a seal migration.'),
  },
  args: { min: 0, max: 1 },
  async run({ flags, args }, { client, out, readStdin, readSecret }) {
    let status: Awaited<ReturnType<typeof client.sys.status>>;
    if (flags.reset) status = await client.sys.unsealReset();
    else {
      const [arg] = args;
      const key =
        arg === undefined
          ? (await readSecret('Unseal Key (will be hidden): ')).trim()
          : arg === '-'
            ? (await readStdin()).trim()
            : arg;
      if (key === '') throw new UsageError('an unseal key is required');
      status = await client.sys.unseal(key, { migrate: flags.migrate === true });
    }
    out.fields(
      {
        ...sealFields(status),
        'Unseal Progress': `${status.progress}/${status.t}`,
        ...(status.migration ? { 'Seal Migration in Progress': true } : {}),
        Version: status.version,
      },
      status,
    );
    return undefined;
  },
});
