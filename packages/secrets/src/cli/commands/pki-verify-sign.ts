import { defineCommand } from '../command.js';
import { readCertificate, verifySignBetween } from '../pki-verify.js';

/** `ward pki verify-sign ISSUER ISSUED`: did the certificate at ISSUER sign the one at ISSUED? */
export const pkiVerifySignCommand = defineCommand({
  name: 'pki verify-sign',
  summary: 'Check whether one issuer signed another certificate.',
  usage: 'POSSIBLE-ISSUER POSSIBLE-ISSUED',
  example: 'ward pki verify-sign pki/issuer/default pki_int/issuer/default',
  description:
    'Both are paths that answer certificate and ca_chain (MOUNT/issuer/REF, MOUNT/cert/SERIAL).\n' +
    'Prints key_id_match (the issued AKID is the issuer SKID), path_match (the issuer is in the\n' +
    'issued ca_chain), signature_match (the issuer key signed it), subject_match (the issuer subject\n' +
    'is the issued issuer name) and trust_match (trusting the issuer alone is enough, now).',
  flags: {},
  args: { min: 2, max: 2 },
  async run({ args: [issuerPath = '', issuedPath = ''] }, { client, out }) {
    const issuer = await readCertificate(client, trimSlashes(issuerPath));
    const issued = await readCertificate(client, trimSlashes(issuedPath));
    const findings = verifySignBetween(issuer, issued, Date.now());
    out.note(`issuer:${issuer.path}\nissued:${issued.path}\n`);
    out.rows(['field', 'value'], Object.entries(findings), findings);
    return undefined;
  },
});

export function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}
