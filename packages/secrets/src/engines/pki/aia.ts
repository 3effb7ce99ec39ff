import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { acmeStore } from './acme/acme-store.js';
import { type IssuerRecord, type MountUrls, pkiStore } from './pki-store.js';
import type { CertificateUrls } from './x509.js';

export const URL_FIELDS = [
  'issuing_certificates',
  'crl_distribution_points',
  'ocsp_servers',
  'delta_crl_distribution_points',
] as const;

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

const urlsOf = (u: CertificateUrls): CertificateUrls => ({
  issuing_certificates: u.issuing_certificates,
  crl_distribution_points: u.crl_distribution_points,
  ocsp_servers: u.ocsp_servers,
  delta_crl_distribution_points: u.delta_crl_distribution_points ?? [],
});

/** `urls` with `{{issuer_id}}` and the `config/cluster` values filled in; a value the cluster lacks is refused. */
export async function fillUrls(storage: Storage, urls: CertificateUrls, issuerId: string): Promise<CertificateUrls> {
  const cluster = await acmeStore.cluster(storage);
  const values = new Map([
    ['issuer_id', issuerId],
    ['cluster_path', cluster.path],
    ['cluster_aia_path', cluster.aia_path || cluster.path],
  ]);
  const plain = urlsOf(urls);
  return {
    issuing_certificates: fill(plain.issuing_certificates, values),
    crl_distribution_points: fill(plain.crl_distribution_points, values),
    ocsp_servers: fill(plain.ocsp_servers, values),
    delta_crl_distribution_points: fill(plain.delta_crl_distribution_points ?? [], values),
  };
}

const hasAny = (u: CertificateUrls | undefined): u is CertificateUrls =>
  u !== undefined && URL_FIELDS.some((f) => (u[f] ?? []).length > 0);

/**
 * The URLs written into what `issuer` signs, as established: the issuer's own when it has any,
 * else the mount's `config/urls`, templates filled in when the source enables them.
 */
export async function certificateUrlsFor(storage: Storage, issuer: IssuerRecord): Promise<CertificateUrls> {
  const own = issuer.aia;
  if (hasAny(own)) return own.enable_aia_url_templating ? fillUrls(storage, own, issuer.issuer_id) : urlsOf(own);
  const global: MountUrls = await pkiStore.urls(storage);
  return global.enable_templating ? fillUrls(storage, global, issuer.issuer_id) : urlsOf(global);
}

/**
 * The URLs of a new self-signed root, whose issuer id does not exist yet: `config/urls`, with a
 * templated URL left out (the root's own AIA points at itself, which relying parties already hold).
 */
export async function rootUrls(storage: Storage): Promise<CertificateUrls> {
  const global: MountUrls = await pkiStore.urls(storage);
  const plain = urlsOf(global);
  if (!global.enable_templating) return plain;
  const keep = (urls: string[] | undefined) => (urls ?? []).filter((u) => !HAS_PLACEHOLDER.test(u));
  return {
    issuing_certificates: keep(plain.issuing_certificates),
    crl_distribution_points: keep(plain.crl_distribution_points),
    ocsp_servers: keep(plain.ocsp_servers),
    delta_crl_distribution_points: keep(plain.delta_crl_distribution_points),
  };
}
