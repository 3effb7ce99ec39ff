import { randomInt } from 'node:crypto';
import { decodeRootToken, type GenerateRootStatus } from '@ward/secrets-client';
import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { shareArgument } from '../key-share.js';
import type { Output } from '../output.js';

const OTP_LENGTH = 28;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * `ward operator generate-root`: make a new root token from a threshold of unseal shares.
 * `-init` starts (with `-otp`, or the server generates the pad and prints it), each holder
 * then runs it with a share; the last one prints the encoded token, which `-decode` with
 * `-otp` turns into the token. `-generate-otp`, `-status`, `-cancel` as their names say.
 */
export const operatorGenerateRootCommand = defineCommand({
  name: 'operator generate-root',
  summary: 'Generate a new root token from unseal key shares.',
  usage: '[KEY | -]',
  example: 'ward operator generate-root -generate-otp',
  description:
    'Start with -init, submit a threshold of shares one by one, then decode the result with -decode and -otp.',
  flags: {
    init: flag.bool('Start a root token generation.'),
    cancel: flag.bool('Cancel the generation in progress.'),
    status: flag.bool('Print the progress of the generation.'),
    otp: flag.string('One-time pad (28 characters) to encode, or with -decode to decode, the token.'),
    'generate-otp': flag.bool('Print a new one-time pad and exit.'),
    decode: flag.string('An encoded token to decode with -otp.'),
    nonce: flag.string('Nonce of the generation (read from the status when omitted).'),
  },
  args: { min: 0, max: 1 },
  async run({ flags, args }, { client, out, readStdin }) {
    const gen = client.sys.generateRoot;
    if (flags['generate-otp']) {
      const otp = Array.from({ length: OTP_LENGTH }, () => BASE62[randomInt(BASE62.length)]).join('');
      out.text(otp, { otp });
      return undefined;
    }
    if (flags.decode !== undefined) {
      if (!flags.otp) throw new UsageError('-decode needs -otp');
      const token = decodeRootToken(flags.decode, flags.otp);
      out.text(token, { token });
      return undefined;
    }
    if (flags.cancel) {
      await gen.cancel();
      out.success('Success! Root token generation canceled (if it was started)');
      return undefined;
    }
    if (flags.init) {
      printStatus(out, await gen.start(flags.otp));
      return undefined;
    }
    if (flags.status) {
      printStatus(out, await gen.status());
      return undefined;
    }
    const key = await shareArgument(args, readStdin);
    const nonce = flags.nonce ?? (await gen.status()).nonce;
    if (!nonce) throw new UsageError('no root token generation in progress: start one with -init');
    printStatus(out, await gen.update(key, nonce));
    return undefined;
  },
});

function printStatus(out: Output, s: GenerateRootStatus) {
  const values: Record<string, unknown> = {
    Nonce: s.nonce,
    Started: s.started,
    Progress: `${s.progress}/${s.required}`,
    Complete: s.complete,
  };
  if (s.otp) values.OTP = s.otp;
  values['OTP Length'] = s.otp_length;
  if (s.encoded_token) values['Encoded Token'] = s.encoded_token;
  out.fields(values, s);
}
