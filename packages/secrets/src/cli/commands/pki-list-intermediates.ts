import type { Client } from '@ward/secrets-client';
import { defineCommand, flag } from '../command.js';
import { readCertificate, type SignFindings, verifySignBetween } from '../pki-verify.js';
import { trimSlashes } from './pki-verify-sign.js';

/**
 * `ward pki list-intermediates PARENT [CHILD …]`: which certificates PARENT issued. A CHILD is a
 * certificate path (…/issuer/…, …/certs/…, …/revoked/…) or a mount whose issuers are all checked;
 * without one, every pki mount's issuers are.
 */
export const pkiListIntermediatesCommand = defineCommand({
  name: 'pki list-intermediates',
  summary: 'List the issuers a parent issuer has signed.',
  usage: 'PARENT [CHILD ...]',
  example: 'ward pki list-intermediates pki/issuer/default pki_int',
  description:
    'A CHILD is a certificate path or a pki mount (all its issuers); without one, all pki mounts.\n' +
    'A child matches when every finding the flags ask for holds (see "ward pki verify-sign").',
  flags: {
    subject_match: flag.bool('The parent subject must be the child issuer name.', true),
    key_id_match: flag.bool('The parent SKID must be the child AKID.', true),
    path_match: flag.bool('The parent must be in the child ca_chain.'),
    direct_sign: flag.bool('The parent key must have signed the child.', true),
    indirect_sign: flag.bool('Trusting the parent must be enough to trust the child.', true),
    use_names: flag.bool('Name issuers by issuer_name (when set) instead of their id.'),
  },
  args: { min: 1 },
  async run({ flags, args: [parentPath = '', ...childArgs] }, { client, out }) {
    const required: (keyof SignFindings)[] = [
      ...(flags.subject_match ? (['subject_match'] as const) : []),
      ...(flags.key_id_match ? (['key_id_match'] as const) : []),
      ...(flags.path_match ? (['path_match'] as const) : []),
      ...(flags.direct_sign ? (['signature_match'] as const) : []),
      ...(flags.indirect_sign ? (['trust_match'] as const) : []),
    ];
    const parent = await readCertificate(client, trimSlashes(parentPath));
    const children: string[] = [];
    const mounts = childArgs.length > 0 ? [] : await pkiMounts(client);
    for (const arg of childArgs) {
      const path = trimSlashes(arg);
      if (/\/(issuer|certs|revoked)\//.test(path)) children.push(path);
      else mounts.push(path);
    }
    for (const mount of mounts) children.push(...(await issuersOf(client, mount, flags.use_names)));
    const matches: Record<string, boolean> = {};
    for (const path of children) {
      const findings = verifySignBetween(parent, await readCertificate(client, path), Date.now());
      matches[path] = required.every((k) => findings[k]);
    }
    out.rows(['intermediate', 'match?'], Object.entries(matches), matches);
    return undefined;
  },
});

async function pkiMounts(client: Client): Promise<string[]> {
  const mounts = (await client.read('sys/mounts'))?.data ?? {};
  return Object.entries(mounts)
    .filter(([, m]) => (m as { type?: unknown } | null)?.type === 'pki')
    .map(([path]) => trimSlashes(path))
    .sort();
}

async function issuersOf(client: Client, mount: string, useNames: boolean): Promise<string[]> {
  const ids = (await client.list(`${mount}/issuers`))?.data?.keys ?? [];
  const paths: string[] = [];
  for (const id of ids) {
    const name = useNames ? (await client.read(`${mount}/issuer/${id}`))?.data?.issuer_name : undefined;
    paths.push(`${mount}/issuer/${typeof name === 'string' && name !== '' ? name : id}`);
  }
  return paths;
}
