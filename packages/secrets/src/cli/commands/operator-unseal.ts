import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';

/** `ward operator unseal KEY`: submits one key share (`-` reads it from stdin). */
export const operatorUnsealCommand = defineCommand({
  name: 'operator unseal',
  summary: 'Submit one unseal key share; prints the progress.',
  usage: 'KEY | -',
  flags: { reset: flag.bool('Discard the shares submitted so far.') },
  args: { min: 0, max: 1 },
  async run({ flags, args }, { client, out, readStdin }) {
    let status: Awaited<ReturnType<typeof client.sys.status>>;
    if (flags.reset) status = await client.sys.unsealReset();
    else {
      const [arg] = args;
      if (arg === undefined) throw new UsageError('an unseal key is required (or - to read it from stdin)');
      const key = arg === '-' ? (await readStdin()).trim() : arg;
      status = await client.sys.unseal(key);
    }
    out.fields(
      {
        'Seal Type': status.type,
        Initialized: status.initialized,
        Sealed: status.sealed,
        'Total Shares': status.n,
        Threshold: status.t,
        'Unseal Progress': `${status.progress}/${status.t}`,
        Version: status.version,
      },
      status,
    );
    return undefined;
  },
});
