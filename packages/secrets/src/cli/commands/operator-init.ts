import { defineCommand, flag } from '../command.js';
import { intFlag } from '../input.js';

/** `ward operator init`: initialises a new server and prints the key shares and root token. */
export const operatorInitCommand = defineCommand({
  name: 'operator init',
  summary: 'Initialise a new server: create the unseal key shares and the root token.',
  usage: '',
  example: 'ward operator init -key-shares=5 -key-threshold=3',
  description:
    'With -status, only report: exit 0 when initialised, 2 when not. With an auto seal (a seal stanza), the server makes recovery keys (-recovery-shares, -recovery-threshold) and unseals itself.',
  flags: {
    'key-shares': flag.string('Number of key shares to split the unseal key into.', '5'),
    'key-threshold': flag.string('Number of shares needed to unseal.', '3'),
    'recovery-shares': flag.string('Auto seal: number of recovery key shares.', '5'),
    'recovery-threshold': flag.string('Auto seal: number of recovery shares needed.', '3'),
    status: flag.bool('Only print whether the server is initialised.'),
  },
  args: { min: 0, max: 0 },
  async run({ flags }, { client, out }) {
    if (flags.status) {
      const initialized = await client.sys.isInitialized();
      out.text(initialized ? 'Server is initialized' : 'Server is not initialized', { initialized });
      return initialized ? 0 : 2;
    }
    if ((await client.sys.status()).recovery_seal) {
      const shares = intFlag(flags['recovery-shares'], 'recovery-shares') ?? 5;
      const threshold = intFlag(flags['recovery-threshold'], 'recovery-threshold') ?? 3;
      const res = await client.sys.init({ recovery_shares: shares, recovery_threshold: threshold });
      const lines = (res.recovery_keys_base64 ?? []).map((k, i) => `Recovery Key ${i + 1}: ${k}`);
      out.text(
        [
          ...lines,
          `Initial Root Token: ${res.root_token}`,
          '',
          `Server initialized with ${shares} recovery key shares and a recovery key threshold of ${threshold}.`,
          'It unsealed itself with its seal. Recovery keys cannot unseal it without that seal; they',
          'authorise a root token, a rekey and a seal migration. Keep them apart and safe.',
        ].join('\n'),
        res,
      );
      return undefined;
    }
    const shares = intFlag(flags['key-shares'], 'key-shares') ?? 5;
    const threshold = intFlag(flags['key-threshold'], 'key-threshold') ?? 3;
    const res = await client.sys.init({ secret_shares: shares, secret_threshold: threshold });
    const values: Record<string, unknown> = {};
    res.keys_base64.forEach((k, i) => {
      values[`Unseal Key ${i + 1}`] = k;
    });
    values['Initial Root Token'] = res.root_token;
    out.text(
      [
        ...Object.entries(values).map(([k, v]) => `${k}: ${v}`),
        '',
        `Server initialized with ${shares} key shares and a key threshold of ${threshold}. It is sealed:`,
        `unseal it with "ward operator unseal" and ${threshold} of the keys above. Keep the keys apart and safe.`,
      ].join('\n'),
      res,
    );
    return undefined;
  },
});
