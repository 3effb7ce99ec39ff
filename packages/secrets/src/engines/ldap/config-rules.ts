import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { InvalidRequestError } from '../../logical/errors.js';
import type { LdapConfig } from './config-store.js';

const TLS_ORDER = ['tls10', 'tls11', 'tls12', 'tls13'];

/** URLs from a comma-delimited list, trimmed and lower-cased; each must be `ldap://` or `ldaps://`. */
export function parseUrls(text: string): string[] {
  const urls = text
    .split(',')
    .map((u) => u.trim().toLowerCase())
    .filter((u) => u !== '');
  if (urls.length === 0) throw new InvalidRequestError('at least one url must be provided');
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidRequestError(`invalid url ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== 'ldap:' && parsed.protocol !== 'ldaps:') {
      throw new InvalidRequestError(`invalid url ${JSON.stringify(url)}: the scheme must be ldap or ldaps`);
    }
  }
  return urls;
}

/** Checks a config about to be saved: binding is possible, TLS material parses, versions are ordered. */
export function checkConfig(config: LdapConfig): void {
  if (!config.binddn) throw new InvalidRequestError('binddn is required');
  if (!config.bindpass) throw new InvalidRequestError('bindpass is required');
  if (config.length !== 0 && (config.length < 4 || config.length > 100)) {
    throw new InvalidRequestError('length must be between 4 and 100');
  }
  if (TLS_ORDER.indexOf(config.tls_max_version) < TLS_ORDER.indexOf(config.tls_min_version)) {
    throw new InvalidRequestError("'tls_max_version' must be greater than or equal to 'tls_min_version'");
  }
  if (config.certificate) {
    try {
      new X509Certificate(config.certificate);
    } catch (err) {
      throw new InvalidRequestError(`failed to parse server tls cert: ${(err as Error).message}`);
    }
  }
  if (!config.client_tls_cert !== !config.client_tls_key) {
    throw new InvalidRequestError('both client_tls_cert and client_tls_key must be set');
  }
  if (config.client_tls_cert) {
    try {
      createSecureContext({ cert: config.client_tls_cert, key: config.client_tls_key });
    } catch (err) {
      throw new InvalidRequestError(`failed to load the client certificate and key: ${(err as Error).message}`);
    }
  }
}
