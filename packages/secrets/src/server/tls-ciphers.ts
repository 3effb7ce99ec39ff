import { InvalidRequestError } from '../logical/errors.js';

/**
 * The established server names cipher suites as Go does (IANA names); Node.js takes OpenSSL's.
 * TLS 1.3 suites are not configurable there (Go always enables them), so they are accepted and
 * leave the TLS 1.3 defaults in place.
 */
const GO_TO_OPENSSL: ReadonlyMap<string, string> = new Map([
  ['TLS_RSA_WITH_AES_128_CBC_SHA', 'AES128-SHA'],
  ['TLS_RSA_WITH_AES_256_CBC_SHA', 'AES256-SHA'],
  ['TLS_RSA_WITH_AES_128_CBC_SHA256', 'AES128-SHA256'],
  ['TLS_RSA_WITH_AES_128_GCM_SHA256', 'AES128-GCM-SHA256'],
  ['TLS_RSA_WITH_AES_256_GCM_SHA384', 'AES256-GCM-SHA384'],
  ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'DES-CBC3-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'ECDHE-ECDSA-AES128-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'ECDHE-ECDSA-AES256-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'ECDHE-RSA-AES128-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', 'ECDHE-RSA-AES256-SHA'],
  ['TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'ECDHE-RSA-DES-CBC3-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', 'ECDHE-ECDSA-AES128-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'ECDHE-RSA-AES128-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'ECDHE-ECDSA-AES128-GCM-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'ECDHE-RSA-AES256-GCM-SHA384'],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'ECDHE-ECDSA-AES256-GCM-SHA384'],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-RSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
]);
const TLS13_SUITES = new Set(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);

/** `tls_cipher_suites` (comma-separated Go names) as an OpenSSL cipher list; unknown names are refused. */
export function cipherList(written: string): string {
  const names = written
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const openssl: string[] = [];
  for (const name of names) {
    if (TLS13_SUITES.has(name)) continue;
    const mapped = GO_TO_OPENSSL.get(name.toUpperCase());
    if (!mapped) throw new InvalidRequestError(`tls_cipher_suites: unsupported cipher "${name}"`);
    openssl.push(mapped);
  }
  if (openssl.length === 0) throw new InvalidRequestError('tls_cipher_suites names no TLS 1.2 cipher suite');
  return openssl.join(':');
}
