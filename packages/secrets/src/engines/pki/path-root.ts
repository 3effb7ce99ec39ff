import { definePath, type FieldValues, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { rootUrls } from './aia.js';
import { caFields } from './ca-fields.js';
import type { PkiDeps } from './deps.js';
import { formatIssued, subjectOf, validityOf } from './issuance.js';
import { importIssuer, importKey, resolveKey } from './issuers.js';
import { importManagedKey, keyPairOfRecord } from './key-records.js';
import { checkKeyParams, newPrivateKey, signingAlgorithm } from './keys.js';
import { parseOtherSans } from './other-sans.js';
import { type KeyRecord, pkiStore } from './pki-store.js';
import { newSerialHex, pemOf, signCertificate, signCsr, type x509 } from './x509.js';

type CaData = FieldValues<typeof caFields> & { exported: string };

/** The key of a new CA: generated (internal/exported), an existing one (existing), or a managed key (kms). */
async function caKey(d: PkiDeps, storage: Storage, data: CaData): Promise<{ key: KeyRecord; exported: boolean }> {
  if (!['internal', 'exported', 'existing', 'kms'].includes(data.exported))
    throw new InvalidRequestError('type must be internal, exported, existing or kms');
  if (data.exported === 'kms') return { key: await importManagedKey(d, storage, data), exported: false };
  if (data.exported === 'existing') return { key: await resolveKey(storage, data.key_ref), exported: false };
  const { type, bits } = checkKeyParams(data.key_type, data.key_bits);
  const { key } = await importKey(d, storage, await newPrivateKey(type, bits), data.key_name);
  return { key, exported: data.exported === 'exported' };
}

const subjectFieldsOf = (data: CaData) => ({ ...data, common_name: data.common_name });

/** `root/generate/:exported` and `issuers/generate/root/:exported`: a self-signed root, a new issuer of the mount. */
export function pathGenerateRoot(d: PkiDeps): PathDefinition[] {
  const fields = { ...caFields, exported: field.path({ description: 'internal, exported, existing or kms.' }) };
  const handler = async ({ storage, data }: { storage: Storage; data: CaData }) =>
    d.locks.run('issuers', async () => {
      if (!data.common_name) throw new InvalidRequestError('the common_name field is required');
      const { key, exported } = await caKey(d, storage, data);
      const algorithm = signingAlgorithm(key.key_type, key.key_bits, data.signature_bits, data.use_pss);
      const keys = await keyPairOfRecord(d, key, algorithm);
      const { notBefore, notAfter, warnings } = validityOf(
        d,
        {
          ttl: data.ttl,
          notAfter: data.not_after,
          roleTtl: 0,
          roleMaxTtl: 0,
          notBeforeDuration: data.not_before_duration,
        },
        undefined,
      );
      const cert = await signCertificate(
        {
          subject: subjectOf(subjectFieldsOf(data)),
          publicKey: keys.publicKey,
          serialHex: newSerialHex(d.random),
          notBefore,
          notAfter,
          isCa: true,
          maxPathLength: data.max_path_length,
          dnsNames: data.exclude_cn_from_sans
            ? [...data.alt_names]
            : [data.common_name, ...data.alt_names].filter((n) => !n.includes(' ')),
          ipAddresses: data.ip_sans,
          uris: data.uri_sans,
          emails: [],
          otherNames: parseOtherSans(data.other_sans),
          keyUsage: 0,
          extKeyUsage: [],
          policyIdentifiers: [],
          urls: await rootUrls(storage),
          basicConstraintsForLeaf: false,
          permittedDnsDomains: data.permitted_dns_domains,
        },
        { privateKey: keys.privateKey, algorithm },
      );
      const { issuer } = await importIssuer(d, storage, cert, data.issuer_name);
      await pkiStore.putCert(storage, issuer.serial_number, {
        certificate: issuer.certificate,
        revocation_time: 0,
        issuer_id: issuer.issuer_id,
        expiration: issuer.expiration,
      });
      const shown = formatIssued(data.format, {
        certificate: issuer.certificate,
        chain: [issuer.certificate],
        privateKey: exported ? key.private_key : undefined,
        privateKeyFormat: data.private_key_format,
      });
      return {
        data: {
          ...shown,
          expiration: issuer.expiration,
          serial_number: issuer.serial_number,
          issuer_id: issuer.issuer_id,
          issuer_name: issuer.issuer_name,
          key_id: key.key_id,
          key_name: key.key_name,
        },
        ...(warnings.length ? { warnings } : {}),
      };
    });
  const operations = { update: { summary: 'Generate a root CA.', handler } };
  const help = {
    synopsis: 'Generate a root CA.',
    description: 'Each call adds an issuer; the first becomes the default.',
  };
  return ['root/generate/:exported', 'issuers/generate/root/:exported'].map((pattern) =>
    definePath({ pattern, fields, operations, help }),
  );
}

/** `intermediate/generate/:exported` and `issuers/generate/intermediate/:exported`: a key and a CSR to have signed. */
export function pathGenerateIntermediate(d: PkiDeps): PathDefinition[] {
  const fields = { ...caFields, exported: field.path({ description: 'internal, exported, existing or kms.' }) };
  const handler = async ({ storage, data }: { storage: Storage; data: CaData }) => {
    const { key, exported } = await caKey(d, storage, data);
    const algorithm = signingAlgorithm(key.key_type, key.key_bits, data.signature_bits);
    const keys = await keyPairOfRecord(d, key, algorithm);
    const names: x509.JsonGeneralName[] = [
      ...(data.common_name && !data.exclude_cn_from_sans ? [data.common_name] : []),
      ...data.alt_names,
    ].map((value) => ({ type: value.includes('@') ? ('email' as const) : ('dns' as const), value }));
    for (const value of data.ip_sans) names.push({ type: 'ip', value });
    const csr = await signCsr(subjectOf(subjectFieldsOf(data)), keys, algorithm, names);
    const der = Buffer.from(csr.rawData);
    const out: Record<string, unknown> = {
      csr: data.format === 'der' ? der.toString('base64') : pemOf(der, 'CERTIFICATE REQUEST'),
      key_id: key.key_id,
      key_name: key.key_name,
    };
    if (exported)
      Object.assign(
        out,
        formatIssued(data.format === 'der' ? 'der' : 'pem', {
          certificate: '',
          chain: [],
          privateKey: key.private_key,
          privateKeyFormat: data.private_key_format,
        }),
      );
    delete out.certificate;
    delete out.issuing_ca;
    delete out.ca_chain;
    return { data: out };
  };
  const operations = { update: { summary: 'Generate an intermediate CSR.', handler } };
  const help = {
    synopsis: 'Generate an intermediate CA key and CSR.',
    description: 'Have the CSR signed (root/sign-intermediate), then give the certificate to intermediate/set-signed.',
  };
  return [
    ...['intermediate/generate/:exported', 'issuers/generate/intermediate/:exported'].map((pattern) =>
      definePath({ pattern, fields, operations, help }),
    ),
    // As established, cross-signing starts with a CSR for a key the mount has (an issuer's, by key_ref).
    definePath({
      pattern: 'intermediate/cross-sign',
      fields: caFields,
      operations: {
        update: {
          summary: 'Generate a CSR for an existing key, to have another CA cross-sign it.',
          handler: async ({ storage, data }) => handler({ storage, data: { ...data, exported: 'existing' } }),
        },
      },
      help,
    }),
  ];
}

/** `root` (DELETE): removes every issuer and key of the mount; issued certificates stay readable. */
export function pathDeleteRoot(d: PkiDeps) {
  return definePath({
    pattern: 'root',
    fields: {},
    operations: {
      delete: {
        summary: 'Delete every issuer and key.',
        handler: async ({ storage }) =>
          d.locks.run('issuers', async () => {
            for (const id of await pkiStore.issuerIds(storage)) {
              await pkiStore.deleteIssuer(storage, id);
              await pkiStore.deleteCrl(storage, id);
            }
            for (const id of await pkiStore.keyIds(storage)) await pkiStore.deleteKey(storage, id);
            await pkiStore.putIssuersConfig(storage, { default: '', default_follows_latest_issuer: false });
            await pkiStore.putKeysConfig(storage, { default: '' });
            return undefined;
          }),
      },
    },
    help: { synopsis: 'Delete the CA.', description: 'The keys are gone for good; issuing fails until a new CA.' },
  });
}
