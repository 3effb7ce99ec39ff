import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { applyTokenFields, EMPTY_TOKEN_PARAMS, tokenFields, tokenReadData } from '../common/index.js';
import { type CertEntry, certStore } from './cert-store.js';
import { parseCertificates } from './pem.js';

const list = (description: string) => field.commaStrings({ description });

const fields = {
  name: field.path({ description: 'Name of the trusted certificate (case-insensitive).', caseInsensitive: true }),
  certificate: field.string({ description: 'PEM: a CA certificate (bundle), or a client certificate trusted as is.' }),
  display_name: field.string({ description: 'Display name of issued tokens (default: the name).' }),
  allowed_names: list('Globs of the CN, DNS or email SANs (one must match).'),
  allowed_common_names: list('Globs of the subject CN.'),
  allowed_dns_sans: list('Globs of DNS SANs.'),
  allowed_email_sans: list('Globs of email SANs.'),
  allowed_uri_sans: list('Globs of URI SANs.'),
  allowed_organizational_units: list('Subject OUs (one must match).'),
  required_extensions: list('`oid:value` extensions the certificate must carry (value a glob).'),
  allowed_metadata_extensions: list('Extension OIDs copied to the alias metadata (accepted; not copied here).'),
  ocsp_enabled: field.bool({ description: 'Check the login certificate with OCSP (RFC 6960) at each login.' }),
  ocsp_ca_certificates: field.string({
    description: 'PEM certificates that may sign OCSP answers besides the issuer.',
  }),
  ocsp_servers_override: list('OCSP servers to ask instead of the certificate’s AIA OCSP URLs.'),
  ocsp_fail_open: field.bool({ description: 'Allow the login when no OCSP server gives a usable answer.' }),
  ocsp_query_all_servers: field.bool({ description: 'Ask every server; all must answer good (else fail_open).' }),
  ...tokenFields,
};

const LISTS = [
  'allowed_names',
  'allowed_common_names',
  'allowed_dns_sans',
  'allowed_email_sans',
  'allowed_uri_sans',
  'allowed_organizational_units',
  'required_extensions',
  'allowed_metadata_extensions',
  'ocsp_servers_override',
] as const;

/** `certs/:name` and LIST `certs`. */
export function pathCerts(): PathDefinition[] {
  return [
    definePath({
      pattern: 'certs/',
      fields: {},
      operations: {
        list: {
          summary: 'List the trusted certificates.',
          handler: async ({ storage }) => ({ data: { keys: await certStore.certs(storage) } }),
        },
      },
      help: { synopsis: 'List the trusted certificates.', description: '404 when there are none.' },
    }),
    definePath({
      pattern: 'certs/:name',
      fields,
      operations: {
        update: {
          summary: 'Trust a certificate.',
          handler: async ({ storage, data, supplied }) => {
            const current = await certStore.cert(storage, data.name);
            const certificate = supplied.has('certificate') ? (data.certificate ?? '') : (current?.certificate ?? '');
            if (!certificate) throw new InvalidRequestError('must provide the certificate');
            parseCertificates(certificate);
            const entry: CertEntry = {
              certificate,
              display_name:
                (supplied.has('display_name') ? data.display_name : current?.display_name) || data.name.toLowerCase(),
              allowed_names: [],
              allowed_common_names: [],
              allowed_dns_sans: [],
              allowed_email_sans: [],
              allowed_uri_sans: [],
              allowed_organizational_units: [],
              required_extensions: [],
              allowed_metadata_extensions: [],
              ocsp_enabled: supplied.has('ocsp_enabled')
                ? data.ocsp_enabled === true
                : (current?.ocsp_enabled ?? false),
              ocsp_ca_certificates: supplied.has('ocsp_ca_certificates')
                ? (data.ocsp_ca_certificates ?? '')
                : (current?.ocsp_ca_certificates ?? ''),
              ocsp_fail_open: supplied.has('ocsp_fail_open')
                ? data.ocsp_fail_open === true
                : (current?.ocsp_fail_open ?? false),
              ocsp_query_all_servers: supplied.has('ocsp_query_all_servers')
                ? data.ocsp_query_all_servers === true
                : (current?.ocsp_query_all_servers ?? false),
              ocsp_servers_override: [],
              token: applyTokenFields(current?.token ?? EMPTY_TOKEN_PARAMS, data, supplied),
            };
            for (const key of LISTS) entry[key] = supplied.has(key) ? (data[key] ?? []) : (current?.[key] ?? []);
            if (entry.ocsp_ca_certificates) parseCertificates(entry.ocsp_ca_certificates);
            for (const url of entry.ocsp_servers_override)
              if (!/^https?:\/\/[^\s]+$/.test(url)) throw new InvalidRequestError(`invalid OCSP server URL "${url}"`);
            for (const ext of entry.required_extensions)
              if (!/^\d+(\.\d+)+:/.test(ext))
                throw new InvalidRequestError(`invalid required_extensions entry "${ext}": want oid:value`);
            await certStore.putCert(storage, data.name, entry);
            return undefined;
          },
        },
        read: {
          summary: 'Read a trusted certificate.',
          handler: async ({ storage, data }) => {
            const entry = await certStore.cert(storage, data.name);
            if (!entry) throw new NotFoundError('');
            const { token, ...rest } = entry;
            return { data: { ...rest, ...tokenReadData(token) } };
          },
        },
        delete: {
          summary: 'Stop trusting a certificate.',
          handler: async ({ storage, data }) => {
            await certStore.deleteCert(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage a trusted certificate.',
        description:
          'A client certificate that chains to this CA (or is this certificate) and meets the allowed_* constraints logs in.',
      },
    }),
  ];
}
