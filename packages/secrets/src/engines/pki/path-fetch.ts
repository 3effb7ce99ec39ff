import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { NotFoundError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';
import type { Storage } from '../../logical/storage.js';
import type { PkiDeps } from './deps.js';
import { chainOf, resolveIssuer } from './issuers.js';
import { serialOf } from './path-revoke.js';
import { pkiStore } from './pki-store.js';
import { currentCrl } from './revocation.js';
import { pemOf, x509 } from './x509.js';

const raw = (body: string | Buffer, contentType: string): LogicalResponse => ({
  raw: { status: 200, body, contentType },
});
const derOf = (pem: string) => Buffer.from(new x509.X509Certificate(pem).rawData);

/** The default issuer, or `undefined` before there is one (the fetch paths then answer 204, as established). */
async function defaultIssuer(storage: Storage) {
  return resolveIssuer(storage, 'default').catch(() => undefined);
}

/**
 * What a fetch path answers; `kind` picks the object and `as` its encoding. Every one is readable
 * without a token, as established (the mount's special paths say so).
 */
async function fetchOf(
  d: PkiDeps,
  storage: Storage,
  ref: string | undefined,
  kind: string,
  as: 'der' | 'pem' | 'json',
) {
  const issuer = ref === undefined ? await defaultIssuer(storage) : await resolveIssuer(storage, ref);
  if (!issuer) return undefined;
  if (kind === 'ca') {
    if (as === 'der') return raw(derOf(issuer.certificate), 'application/pkix-cert');
    if (as === 'pem') return raw(`${issuer.certificate}\n`, 'application/pem-certificate-chain');
    const ca_chain = await chainOf(storage, issuer);
    return {
      data: {
        certificate: issuer.certificate,
        ca_chain,
        issuer_id: issuer.issuer_id,
        issuer_name: issuer.issuer_name,
        revocation_time: issuer.revocation_time,
      },
    };
  }
  if (kind === 'chain') {
    const chain = await chainOf(storage, issuer);
    if (as === 'json') return { data: { certificate: chain.join('\n'), ca_chain: chain, revocation_time: 0 } };
    return raw(`${chain.join('\n')}\n`, 'application/pem-certificate-chain');
  }
  const der = await currentCrl(d, storage, issuer, kind === 'delta');
  if (as === 'der') return raw(der, 'application/pkix-crl');
  if (as === 'pem') return raw(`${pemOf(der, 'X509 CRL')}\n`, 'application/x-pem-file');
  return { data: { crl: pemOf(der, 'X509 CRL') } };
}

/** `ca`, `ca/pem`, `ca_chain`, `crl`, `crl/pem`, `crl/delta[/pem]`, `cert/:serial` and the per-issuer forms. */
export function pathFetch(d: PkiDeps): PathDefinition[] {
  const simple: [string, string, 'der' | 'pem' | 'json'][] = [
    ['ca', 'ca', 'der'],
    ['ca/pem', 'ca', 'pem'],
    ['ca_chain', 'chain', 'pem'],
    ['crl', 'crl', 'der'],
    ['crl/pem', 'crl', 'pem'],
    ['crl/delta', 'delta', 'der'],
    ['crl/delta/pem', 'delta', 'pem'],
  ];
  const perIssuer: [string, string, 'der' | 'pem' | 'json'][] = [
    ['pem', 'ca', 'pem'],
    ['der', 'ca', 'der'],
    ['json', 'ca', 'json'],
    ['crl', 'crl', 'json'],
    ['crl/pem', 'crl', 'pem'],
    ['crl/der', 'crl', 'der'],
    ['crl/delta', 'delta', 'json'],
    ['crl/delta/pem', 'delta', 'pem'],
    ['crl/delta/der', 'delta', 'der'],
  ];
  // With config/crl unified_crl: one cluster here, so the unified CRLs are the local ones.
  const unified: [string, string, 'der' | 'pem' | 'json'][] = [
    ['unified-crl', 'crl', 'der'],
    ['unified-crl/pem', 'crl', 'pem'],
    ['unified-crl/delta', 'delta', 'der'],
    ['unified-crl/delta/pem', 'delta', 'pem'],
  ];
  const unifiedPerIssuer: [string, string, 'der' | 'pem' | 'json'][] = [
    ['unified-crl', 'crl', 'json'],
    ['unified-crl/pem', 'crl', 'pem'],
    ['unified-crl/der', 'crl', 'der'],
    ['unified-crl/delta', 'delta', 'json'],
    ['unified-crl/delta/pem', 'delta', 'pem'],
    ['unified-crl/delta/der', 'delta', 'der'],
  ];
  const unifiedOnly = async (storage: Storage) => {
    if (!(await pkiStore.crlConfig(storage)).unified_crl) throw new NotFoundError('unified CRLs are not enabled');
  };
  const issuerRef = { issuer_ref: field.path({ description: 'The issuer (id, name or default).' }) };
  const help = { synopsis: 'Fetch a CA certificate, chain or CRL.', description: 'No token needed, as established.' };
  return [
    ...simple.map(([pattern, kind, as]) =>
      definePath({
        pattern,
        fields: {},
        operations: {
          read: {
            summary: `Read ${pattern}.`,
            handler: async ({ storage }) => fetchOf(d, storage, undefined, kind, as),
          },
        },
        help,
      }),
    ),
    ...unified.map(([pattern, kind, as]) =>
      definePath({
        pattern,
        fields: {},
        operations: {
          read: {
            summary: `Read ${pattern} (unified_crl: the local CRL).`,
            handler: async ({ storage }) => {
              await unifiedOnly(storage);
              return fetchOf(d, storage, undefined, kind, as);
            },
          },
        },
        help,
      }),
    ),
    ...unifiedPerIssuer.map(([suffix, kind, as]) =>
      definePath({
        pattern: `issuer/:issuer_ref/${suffix}`,
        fields: issuerRef,
        operations: {
          read: {
            summary: `Read the issuer's ${suffix} (unified_crl: the local CRL).`,
            handler: async ({ storage, data }) => {
              await unifiedOnly(storage);
              return fetchOf(d, storage, data.issuer_ref, kind, as);
            },
          },
        },
        help,
      }),
    ),
    ...perIssuer.map(([suffix, kind, as]) =>
      definePath({
        pattern: `issuer/:issuer_ref/${suffix}`,
        fields: issuerRef,
        operations: {
          read: {
            summary: `Read the issuer's ${suffix}.`,
            handler: async ({ storage, data }) => fetchOf(d, storage, data.issuer_ref, kind, as),
          },
        },
        help,
      }),
    ),
    definePath({
      pattern: 'cert/:serial',
      fields: {
        serial: field.path({
          description: 'Serial number (colons or hyphens), or ca, ca_chain, crl, delta-crl.',
          caseInsensitive: true,
        }),
      },
      operations: {
        read: {
          summary: 'Read a certificate and whether it is revoked.',
          handler: async ({ storage, data }) => {
            const special = new Map([
              ['ca', 'ca'],
              ['ca_chain', 'chain'],
              ['crl', 'crl'],
              ['delta-crl', 'delta'],
            ]);
            const kind = special.get(data.serial.toLowerCase());
            if (kind) {
              const answer = await fetchOf(d, storage, undefined, kind, 'json');
              if (answer?.data && 'crl' in answer.data)
                answer.data = { certificate: answer.data.crl, revocation_time: 0 };
              return answer;
            }
            const cert = await pkiStore.cert(storage, serialOf(data.serial));
            if (!cert) throw new NotFoundError('');
            return {
              data: {
                certificate: cert.certificate.trim(),
                revocation_time: cert.revocation_time,
                revocation_time_rfc3339: cert.revocation_time
                  ? new Date(cert.revocation_time * 1000).toISOString()
                  : '',
                issuer_id: cert.issuer_id ?? '',
              },
            };
          },
        },
      },
      help: { synopsis: 'Read a certificate.', description: 'revocation_time is 0 until revoked.' },
    }),
  ];
}

/** The special paths served without a token, as established. */
export const UNAUTHENTICATED_PATHS = [
  'cert/*',
  'ca/pem',
  'ca_chain',
  'ca',
  'crl',
  'crl/pem',
  'crl/delta',
  'crl/delta/pem',
  'issuer/+/crl*',
  'issuer/+/unified-crl*',
  'unified-crl',
  'unified-crl/*',
  'unified-ocsp',
  'unified-ocsp/*',
  'issuer/+/pem',
  'issuer/+/der',
  'issuer/+/json',
  'issuers/',
  'ocsp',
  'ocsp/*',
];
