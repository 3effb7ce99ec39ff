import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { acmeStore } from './acme/acme-store.js';
import { type IssuerRecord, pkiStore } from './pki-store.js';
import type { CertificateUrls } from './x509.js';

export const URL_FIELDS = ['issuing_certificates', 'crl_distribution_points', 'ocsp_servers'] as const;

const PLACEHOLDER = /\{\{\s*(issuer_id|cluster_path|cluster_aia_path)\s*\}\}/g;
const HAS_PLACEHOLDER = /\{\{\s*(issuer_id|cluster_path|cluster_aia_path)\s*\}\}/;
const EXAMPLE_CLUSTER = 'https://cluster.invalid/v1/pki';

/** Refuses anything but http(s) and ldap URLs; with templating, checked with the placeholders filled in. */
export function checkUrls(name: string, urls: string[], templated = false): string[] {
  for (const url of urls) {
    if (!templated && HAS_PLACEHOLDER.test(url))
      throw new InvalidRequestError(`${name} holds a template but enable_aia_url_templating is not set: ${url}`);
    // A cluster path is itself a URL (https://host:8200/v1/pki); an issuer id is one path segment.
    const text = url.replace(PLACEHOLDER, (_, p: string) => (p === 'issuer_id' ? 'issuer-id' : EXAMPLE_CLUSTER));
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw new InvalidRequestError(`invalid URL in ${name}: ${url}`);
    }
    if (!/^(https?|ldap):$/.test(parsed.protocol)) throw new InvalidRequestError(`invalid URL in ${name}: ${url}`);
  }
  return urls;
}

function fill(urls: string[], values: Map<string, string>): string[] {
  return urls.map((url) =>
    url.replace(PLACEHOLDER, (_, name: string) => {
      const value = values.get(name) ?? '';
      if (!value)
        throw new InvalidRequestError(
          `unable to parse AIA URL template: ${name} is used but config/cluster does not set ${name === 'cluster_path' ? 'path' : 'aia_path'}`,
        );
      return value;
    }),
  );
}

/**
 * The URLs written into what `issuer` signs, as established: the issuer's own when it has any
 * (templates filled in), else the mount's `config/urls`.
 */
export async function certificateUrlsFor(storage: Storage, issuer: IssuerRecord | undefined): Promise<CertificateUrls> {
  const own = issuer?.aia;
  if (!own || !URL_FIELDS.some((f) => own[f].length > 0)) return pkiStore.urls(storage);
  if (!own.enable_aia_url_templating)
    return {
      issuing_certificates: own.issuing_certificates,
      crl_distribution_points: own.crl_distribution_points,
      ocsp_servers: own.ocsp_servers,
    };
  const cluster = await acmeStore.cluster(storage);
  const values = new Map([
    ['issuer_id', issuer.issuer_id],
    ['cluster_path', cluster.path],
    ['cluster_aia_path', cluster.aia_path || cluster.path],
  ]);
  return {
    issuing_certificates: fill(own.issuing_certificates, values),
    crl_distribution_points: fill(own.crl_distribution_points, values),
    ocsp_servers: fill(own.ocsp_servers, values),
  };
}
