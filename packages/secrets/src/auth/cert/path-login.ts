import { X509Certificate } from 'node:crypto';
import type { Clock, Random } from '@ward/base';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { TlsConnection } from '../../logical/request.js';
import type { Storage } from '../../logical/storage.js';
import { tokenGrant } from '../common/index.js';
import { type CertEntry, certStore } from './cert-store.js';
import { chainTo, isPinnedMatch } from './chain.js';
import { factsOf, meetsConstraints } from './constraints.js';
import type { OcspCache } from './ocsp-cache.js';
import { type OcspDeps, ocspAllows } from './ocsp-check.js';
import { decimalSerial, parseCertificates } from './pem.js';

/** The client's certificates from the TLS connection, its own first (the chain it sent, as DER). */
export function presentedChain(connection: TlsConnection | undefined, forwarded?: Uint8Array): X509Certificate[] {
  // As established, a certificate a trusted proxy passed on stands in for the connection's.
  if (forwarded) return [new X509Certificate(forwarded)];
  if (!connection) throw new InvalidRequestError('tls connection required');
  const chain: X509Certificate[] = [];
  let cert = connection.getPeerCertificate(true);
  const seen = new Set<unknown>();
  while (cert && 'raw' in cert && cert.raw && !seen.has(cert)) {
    seen.add(cert);
    chain.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  if (chain.length === 0) throw new InvalidRequestError('client certificate must be supplied');
  return chain;
}

/** The serials (decimal) of every CRL of the mount. */
async function revokedSerials(storage: Storage): Promise<Set<string>> {
  const revoked = new Set<string>();
  for (const name of await certStore.crls(storage))
    for (const serial of (await certStore.crl(storage, name))?.serials ?? []) revoked.add(serial);
  return revoked;
}

/** `0a:1b:…`, as the established method shows key ids. */
const hexColons = (hex: string) =>
  hex
    .replace(/[^0-9a-f]/gi, '')
    .toLowerCase()
    .replace(/(..)(?!$)/g, '$1:');

/**
 * The trusted entry a client chain logs in under: the named one, or the first (by name) whose
 * certificate the chain reaches or pins, whose constraints it meets, and no certificate of which is revoked.
 */
async function matchEntry(
  storage: Storage,
  chain: X509Certificate[],
  name: string | undefined,
  nowMs: number,
  ocsp: OcspDeps,
): Promise<{ name: string; entry: CertEntry } | undefined> {
  // With ocsp_enabled, the leaf's issuer (on the path found) is asked too; a pinned certificate has none here.
  const ocspAllowsPath = async (entry: CertEntry, path: X509Certificate[]) => {
    if (!entry.ocsp_enabled) return true;
    const [leafOfPath, issuer] = path;
    const settings = {
      servers: entry.ocsp_servers_override,
      caCertificates: entry.ocsp_ca_certificates,
      failOpen: entry.ocsp_fail_open,
      queryAllServers: entry.ocsp_query_all_servers,
    };
    if (!leafOfPath || !issuer) return entry.ocsp_fail_open;
    return ocspAllows(leafOfPath, issuer, settings, nowMs, ocsp);
  };
  const [leaf, ...intermediates] = chain;
  if (!leaf) return undefined;
  const names = name ? [name.toLowerCase()] : await certStore.certs(storage);
  const revoked = await revokedSerials(storage);
  const facts = factsOf(leaf);
  for (const candidate of names) {
    const entry = await certStore.cert(storage, candidate);
    if (!entry) continue;
    for (const trusted of parseCertificates(entry.certificate)) {
      const path = isPinnedMatch(leaf, trusted) ? [leaf] : chainTo(leaf, intermediates, trusted, nowMs);
      if (!path) continue;
      if (path.some((c) => revoked.has(decimalSerial(c.serialNumber)))) continue;
      if (meetsConstraints(entry, facts) && (await ocspAllowsPath(entry, path))) return { name: candidate, entry };
    }
  }
  return undefined;
}

/** `login`: the TLS client certificate of the connection, against the trusted certificates. */
export function pathLogin(d: { clock: Clock; random: Random; ocspCache: OcspCache }) {
  return definePath({
    pattern: 'login',
    fields: { name: field.string({ description: 'Only try this trusted certificate.' }) },
    operations: {
      update: {
        summary: 'Log in with the TLS client certificate.',
        handler: async ({ req, storage, data }) => {
          const chain = presentedChain(req.tlsConnection, req.forwardedClientCertificate);
          if (data.name && !(await certStore.cert(storage, data.name)))
            throw new InvalidRequestError(`no trusted certificate named "${data.name}"`);
          const config = await certStore.config(storage);
          d.ocspCache.resize(config.ocsp_cache_size);
          const ocsp = { cache: d.ocspCache, random: d.random };
          const matched = await matchEntry(storage, chain, data.name, d.clock.now(), ocsp);
          if (!matched) throw new InvalidRequestError('invalid certificate or no client certificate supplied');
          const leaf = chain[0] as X509Certificate;
          const facts = factsOf(leaf);
          const metadata = {
            cert_name: matched.name,
            common_name: facts.commonName,
            serial_number: decimalSerial(leaf.serialNumber),
            subject_key_id: hexColons(facts.subjectKeyId),
            authority_key_id: hexColons(facts.authorityKeyId),
          };
          const { enable_identity_alias_metadata } = config;
          return {
            login: {
              aliasName: facts.commonName,
              displayName: matched.entry.display_name,
              metadata,
              // As established, the entity alias carries the login's metadata only when configured.
              ...(enable_identity_alias_metadata ? { aliasMetadata: { ...metadata } } : {}),
              ...tokenGrant(matched.entry.token),
            },
          };
        },
      },
    },
    help: {
      synopsis: 'Log in with a TLS client certificate.',
      description:
        'Needs no token, and a TLS connection on which the client sent its certificate. Refused (400) when no trusted ' +
        'certificate is reached or pinned, a constraint fails, or a certificate of the chain is in a CRL.',
    },
  });
}
