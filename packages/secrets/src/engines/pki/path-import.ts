import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { PkiDeps } from './deps.js';
import { importIssuer, importKey } from './issuers.js';
import { parseCertificates } from './x509.js';

const KEY_BLOCK = /-----BEGIN (?:RSA |EC |)PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC |)PRIVATE KEY-----/g;

/**
 * Imports the keys and CA certificates of a PEM bundle, as established: keys first, so each
 * certificate finds its key; answers what was new and what the mount had already.
 */
async function importBundle(d: PkiDeps, storage: Storage, pem: string, allowKeys: boolean) {
  const keyBlocks = pem.match(KEY_BLOCK) ?? [];
  if (keyBlocks.length > 0 && !allowKeys) throw new InvalidRequestError('private keys are not allowed on this path');
  const certs = parseCertificates(pem);
  if (certs.length === 0 && keyBlocks.length === 0) throw new InvalidRequestError('no data found in PEM bundle');
  const imported_keys: string[] = [];
  const existing_keys: string[] = [];
  for (const block of keyBlocks) {
    const { key, isNew } = await importKey(d, storage, block);
    (isNew ? imported_keys : existing_keys).push(key.key_id);
  }
  const imported_issuers: string[] = [];
  const existing_issuers: string[] = [];
  const mapping: Record<string, string> = {};
  for (const cert of certs) {
    const { issuer, isNew } = await importIssuer(d, storage, cert);
    (isNew ? imported_issuers : existing_issuers).push(issuer.issuer_id);
    mapping[issuer.issuer_id] = issuer.key_id;
  }
  return {
    data: {
      imported_issuers: imported_issuers.length ? imported_issuers : null,
      imported_keys: imported_keys.length ? imported_keys : null,
      existing_issuers: existing_issuers.length ? existing_issuers : null,
      existing_keys: existing_keys.length ? existing_keys : null,
      mapping,
    },
  };
}

/**
 * `config/ca` and `issuers/import/bundle` (keys and certificates), `issuers/import/cert` (certificates
 * only), and `intermediate/set-signed` (the signed intermediate, found its key by public key).
 */
export function pathImport(d: PkiDeps): PathDefinition[] {
  const bundle = { pem_bundle: field.string({ description: 'PEM keys and CA certificates.', required: true }) };
  const run =
    (allowKeys: boolean) =>
    async ({ storage, data }: { storage: Storage; data: { pem_bundle: string } }) =>
      d.locks.run('issuers', () => importBundle(d, storage, data.pem_bundle, allowKeys));
  const help = { synopsis: 'Import CA certificates and keys.', description: 'Each certificate becomes an issuer.' };
  return [
    ...['config/ca', 'issuers/import/bundle'].map((pattern) =>
      definePath({
        pattern,
        fields: bundle,
        operations: { update: { summary: 'Import a bundle.', handler: run(true) } },
        help,
      }),
    ),
    definePath({
      pattern: 'issuers/import/cert',
      fields: bundle,
      operations: { update: { summary: 'Import certificates.', handler: run(false) } },
      help,
    }),
    definePath({
      pattern: 'intermediate/set-signed',
      fields: {
        certificate: field.string({ description: 'The signed intermediate (and its chain), PEM.', required: true }),
      },
      operations: {
        update: {
          summary: 'Set the signed intermediate certificate.',
          handler: async ({ storage, data }) =>
            d.locks.run('issuers', async () => {
              const answer = await importBundle(d, storage, data.certificate, false);
              if (!answer.data.imported_issuers && !answer.data.existing_issuers)
                throw new InvalidRequestError('no certificate found in the certificate field');
              return answer;
            }),
        },
      },
      help: {
        synopsis: 'Set the signed intermediate.',
        description: 'Its key must be on the mount (intermediate/generate).',
      },
    }),
  ];
}
