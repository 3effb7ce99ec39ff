import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { acmeStore } from './acme/acme-store.js';
import { EMPTY_URLS, type IssuerRecord, pkiStore } from './pki-store.js';
import type { CertificateUrls } from './x509.js';

export const URL_FIELDS = ['issuing_certificates', 'crl_distribution_points', 'ocsp_servers'] as const;

const PLACEHOLDER = /\{\{\s*(issuer_id|cluster_path|cluster_aia_path)\s*\}\}/g;
const HAS_PLACEHOLDER = /\{\{\s*(issuer_id|cluster_path|cluster_aia_path)\s*\}\}/;
const EXAMPLE_CLUSTER = 'https://cluster.invalid/v1/pki';

/** Refuses anything but http(s) and ldap URLs; with templating, checked with the placeholders filled in. */
export function checkUrls(
  name: string,
  urls: string[],
  templated = false,
  flag = 'enable_aia_url_templating',
): string[] {
  for (const url of urls) {
    if (!templated && HAS_PLACEHOLDER.test(url))
      throw new InvalidRequestError(`${name} holds a template but ${flag} is not set: ${url}`);
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
 * The URLs written into what `issuer` signs, as established: the issuer's own when it has any,
 * else the mount's `config/urls`; templates filled in when the ones used allow them
 * (`enable_aia_url_templating` of the issuer, `enable_templating` of `config/urls`).
 */
export async function certificateUrlsFor(storage: Storage, issuer: IssuerRecord | undefined): Promise<CertificateUrls> {
  const own = issuer?.aia;
  const hasOwn = own !== undefined && URL_FIELDS.some((f) => own[f].length > 0);
  const mount = hasOwn ? undefined : await pkiStore.urls(storage);
  const urls: CertificateUrls = own && hasOwn ? own : (mount ?? EMPTY_URLS);
  const templated = own && hasOwn ? own.enable_aia_url_templating : mount?.enable_templating === true;
  if (!templated || !issuer)
    return {
      issuing_certificates: urls.issuing_certificates,
      crl_distribution_points: urls.crl_distribution_points,
      ocsp_servers: urls.ocsp_servers,
    };
  const cluster = await acmeStore.cluster(storage);
  const values = new Map([
    ['issuer_id', issuer.issuer_id],
    ['cluster_path', cluster.path],
    ['cluster_aia_path', cluster.aia_path || cluster.path],
  ]);
  return {
    issuing_certificates: fill(urls.issuing_certificates, values),
    crl_distribution_points: fill(urls.crl_distribution_points, values),
    ocsp_servers: fill(urls.ocsp_servers, values),
  };
}

/**
 * The mount's URLs for a new root, which has no issuer id yet to fill a template with: the
 * templated ones (`enable_templating`) are left out rather than written as placeholders.
 */
export async function rootUrls(storage: Storage): Promise<CertificateUrls> {
  const urls = await pkiStore.urls(storage);
  const plain = (list: string[]) => (urls.enable_templating ? list.filter((u) => !HAS_PLACEHOLDER.test(u)) : list);
  return {
    issuing_certificates: plain(urls.issuing_certificates),
    crl_distribution_points: plain(urls.crl_distribution_points),
    ocsp_servers: plain(urls.ocsp_servers),
  };
}
