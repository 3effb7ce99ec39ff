import { defineCommand, flag } from '../command.js';

/**
 * `ward token capabilities [TOKEN] PATH`: what a token may do at a path (the caller's own token
 * when only PATH is given; with `-accessor`, TOKEN is an accessor).
 */
export const tokenCapabilitiesCommand = defineCommand({
  name: 'token capabilities',
  summary: 'Show the capabilities of a token on a path.',
  usage: '[TOKEN | ACCESSOR] PATH',
  example: 'ward token capabilities secret/data/app',
  flags: { accessor: flag.bool('The first argument is an accessor, not a token.') },
  args: { min: 1, max: 2 },
  async run({ flags, args }, { client, out }) {
    const path = args.at(-1) as string;
    const subject = args.length === 2 ? (args[0] as string) : undefined;
    const endpoint =
      subject === undefined
        ? 'sys/capabilities-self'
        : flags.accessor
          ? 'sys/capabilities-accessor'
          : 'sys/capabilities';
    const body =
      subject === undefined
        ? { paths: [path] }
        : flags.accessor
          ? { accessor: subject, paths: [path] }
          : { token: subject, paths: [path] };
    const secret = await client.write(endpoint, body);
    const capabilities = ((secret?.data?.[path] ?? secret?.data?.capabilities ?? []) as string[]).slice().sort();
    out.text(capabilities.join(', '), capabilities);
    return undefined;
  },
});
