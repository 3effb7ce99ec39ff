import { defineCommand, flag } from '../command.js';
import { parseDataArgs } from '../input.js';
import { pkiIssue } from '../pki-issue.js';
import { trimSlashes } from './pki-verify-sign.js';

/** `ward pki issue PARENT CHILD_MOUNT K=V…`: a new intermediate CA on CHILD_MOUNT, signed by PARENT. */
export const pkiIssueCommand = defineCommand({
  name: 'pki issue',
  summary: 'Make an intermediate CA on a mount, signed by a parent issuer.',
  usage: 'PARENT CHILD_MOUNT K=V ...',
  example: 'ward pki issue -issuer_name=int pki/issuer/default pki_int common_name="Intermediate CA"',
  description:
    'PARENT is MOUNT/issuer/REF; the K=V pairs (at least one) go to CHILD_MOUNT/intermediate/generate/TYPE\n' +
    'and to PARENT/sign-intermediate. The certificate and its parent are imported into CHILD_MOUNT.',
  flags: {
    type: flag.string('Where the key comes from: internal (new), existing, or kms.', 'internal'),
    issuer_name: flag.string('Name of the new issuer.'),
  },
  args: { min: 3 },
  async run({ flags, args: [parent = '', child = '', ...pairs] }, ctx) {
    const data = await parseDataArgs(pairs, ctx);
    await pkiIssue(ctx, trimSlashes(parent), trimSlashes(child), flags.type, flags.issuer_name ?? '', data);
    return undefined;
  },
});
