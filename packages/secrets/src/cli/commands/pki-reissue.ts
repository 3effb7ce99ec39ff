import { CliError, defineCommand, flag } from '../command.js';
import { parseDataArgs } from '../input.js';
import { pkiIssue } from '../pki-issue.js';
import { templateFromCertificate, withChanges } from '../pki-template.js';
import { trimSlashes } from './pki-verify-sign.js';

/** `ward pki reissue PARENT TEMPLATE CHILD_MOUNT [K=V…]`: `pki issue` with the fields of an existing issuer. */
export const pkiReissueCommand = defineCommand({
  name: 'pki reissue',
  summary: 'Make an intermediate CA like an existing issuer, signed by a parent issuer.',
  usage: 'PARENT TEMPLATE CHILD_MOUNT [K=V ...]',
  example: 'ward pki reissue pki/issuer/root pki_int/issuer/old pki_int ttl=8760h',
  description:
    "TEMPLATE is an issuer path whose certificate gives the request's names, subject, lifetime, path\n" +
    'length, permitted DNS domains, signature and key type; the K=V pairs change them. With -type=existing\n' +
    'the template\'s own key is used. Then as "ward pki issue".',
  flags: {
    type: flag.string('Where the key comes from: internal (new), existing (the template key), or kms.', 'internal'),
    issuer_name: flag.string('Name of the new issuer.'),
  },
  args: { min: 3 },
  async run({ flags, args: [parent = '', templatePath = '', child = '', ...pairs] }, ctx) {
    const changes = await parseDataArgs(pairs, ctx);
    const template = await ctx.client.read(trimSlashes(templatePath));
    const pem = template?.data?.certificate;
    if (typeof pem !== 'string') throw new CliError(`${templatePath} has no certificate field`, 2);
    let keyRef: string | undefined;
    if (flags.type === 'existing') {
      keyRef = String(template?.data?.key_id ?? '');
      if (!keyRef)
        throw new CliError(`the template issuer ${templatePath} names no key_id, which -type=existing needs`, 2);
    }
    const data = withChanges(templateFromCertificate(pem, keyRef), changes);
    await pkiIssue(ctx, trimSlashes(parent), trimSlashes(child), flags.type, flags.issuer_name ?? '', data);
    return undefined;
  },
});
