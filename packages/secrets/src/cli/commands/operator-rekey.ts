import type { RekeyResult, RekeyStatus } from '@ward/secrets-client';
import { defineCommand, flag } from '../command.js';
import { UsageError } from '../flags.js';
import { intFlag } from '../input.js';
import { shareArgument } from '../key-share.js';
import type { Output } from '../output.js';

/**
 * `ward operator rekey`: replace the unseal key shares. `-init` starts (with `-key-shares`,
 * `-key-threshold`, `-verify`), then each holder runs it with a current share; the last one
 * prints the new shares. `-verify` with a new share completes a verification; `-status`,
 * `-cancel` as their names say.
 */
export const operatorRekeyCommand = defineCommand({
  name: 'operator rekey',
  summary: 'Replace the unseal key shares (the root key stays).',
  usage: '[KEY | -]',
  example: 'ward operator rekey -init -key-shares=5 -key-threshold=3',
  description:
    'Start with -init, then submit a threshold of the current shares one by one; the last submission prints the new shares.',
  flags: {
    init: flag.bool('Start a rekey.'),
    cancel: flag.bool('Cancel the rekey in progress.'),
    status: flag.bool('Print the progress of the rekey.'),
    verify: flag.bool('With -init: the new shares must be verified. Otherwise: submit a new share for verification.'),
    'key-shares': flag.string('Number of new shares (with -init).', '5'),
    'key-threshold': flag.string('Shares needed to unseal (with -init).', '3'),
    nonce: flag.string('Nonce of the rekey (read from the status when omitted).'),
  },
  args: { min: 0, max: 1 },
  async run({ flags, args }, { client, out, readStdin }) {
    const rekey = client.sys.rekey;
    if (flags.cancel) {
      if (flags.verify) await rekey.cancelVerify();
      else await rekey.cancel();
      out.success('Success! Canceled rekeying (if it was started)');
      return undefined;
    }
    if (flags.init) {
      const status = await rekey.start({
        secret_shares: intFlag(flags['key-shares'], 'key-shares') ?? 5,
        secret_threshold: intFlag(flags['key-threshold'], 'key-threshold') ?? 3,
        require_verification: flags.verify === true,
      });
      printStatus(out, status);
      return undefined;
    }
    if (flags.status) {
      printStatus(out, await rekey.status());
      return undefined;
    }
    const key = await shareArgument(args, readStdin);
    if (flags.verify) {
      const nonce = flags.nonce ?? (await rekey.verifyStatus()).nonce;
      const result = await rekey.verify(key, nonce);
      if (result.complete) out.success(`Success! Rekey verification completed with nonce ${result.nonce}`);
      else out.fields({ Nonce: result.nonce, Progress: `${result.progress}/${result.t}` }, result);
      return undefined;
    }
    const nonce = flags.nonce ?? (await rekey.status()).nonce;
    if (!nonce) throw new UsageError('no rekey in progress: start one with -init');
    const result = await rekey.update(key, nonce);
    if (result.complete) printNewShares(out, result);
    else printStatus(out, result);
    return undefined;
  },
});

function printStatus(out: Output, s: RekeyStatus): void {
  out.fields(
    {
      Nonce: s.nonce,
      Started: s.started,
      'Rekey Progress': `${s.progress}/${s.required}`,
      'New Shares': s.n,
      'New Threshold': s.t,
      'Verification Required': s.verification_required,
    },
    s,
  );
}

function printNewShares(out: Output, r: RekeyResult): void {
  const lines = r.keys_base64.map((k, i) => `Key ${i + 1}: ${k}`);
  lines.push('', `Operation nonce: ${r.nonce}`, '');
  lines.push(
    r.verification_required
      ? `The new shares are not in force yet: submit a threshold of them with "ward operator rekey -verify" (verification nonce ${r.verification_nonce}).`
      : `Server rekeyed with ${r.keys_base64.length} key shares. The old shares no longer unseal it; distribute these and keep them apart.`,
  );
  out.text(lines.join('\n'), r);
}
