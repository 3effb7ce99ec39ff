import { createPrivateKey } from 'node:crypto';
import { X509Certificate } from '@peculiar/x509';
import { InvalidRequestError } from '../../logical/errors.js';

/** The kinds of credential a role may name, as established. */
export const CREDENTIAL_TYPES = ['password', 'rsa_private_key', 'client_certificate'] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

const bad = (message: string) => new InvalidRequestError(`credential_config validation failed: ${message}`);

/** Go's weak decoding of a string map value into an int: `""` is 0, anything else must be a number. */
function int(config: Readonly<Record<string, string>>, key: string): number {
  const raw = config[key];
  if (raw === undefined || raw === '') return 0;
  if (!/^-?\d+$/.test(raw))
    throw bad(`cannot parse '${key}' as int: strconv.ParseInt: parsing "${raw}": invalid syntax`);
  return Number(raw);
}

/** `password`: `password_policy` (overrides the connection's). */
function passwordConfig(c: Readonly<Record<string, string>>): Record<string, string> {
  return c.password_policy ? { password_policy: c.password_policy } : {};
}

/** `rsa_private_key`: `format` (`pkcs8`) and `key_bits` (2048, 3072 or 4096). */
function rsaConfig(c: Readonly<Record<string, string>>): Record<string, string> {
  const format = (c.format ?? '').toLowerCase() || 'pkcs8';
  if (format !== 'pkcs8') throw bad(`invalid format: ${c.format}`);
  const bits = int(c, 'key_bits') || 2048;
  if (![2048, 3072, 4096].includes(bits)) throw bad(`invalid key_bits: ${bits}`);
  return { format, key_bits: String(bits) };
}

/**
 * `client_certificate`: `common_name_template` (required, a username template), `ca_cert` and
 * `ca_private_key` (PEM; a CA certificate and its key), `key_type` (`rsa`, `ec`, `ed25519`),
 * `key_bits` and `signature_bits`.
 */
function certificateConfig(c: Readonly<Record<string, string>>, checkTemplate: (source: string) => void) {
  const keyType = c.key_type ?? '';
  let bits = int(c, 'key_bits');
  if (keyType === 'rsa') {
    bits ||= 2048;
    if (![2048, 3072, 4096].includes(bits)) throw bad('invalid key_bits');
  } else if (keyType === 'ec') {
    bits ||= 256;
    if (![224, 256, 384, 521].includes(bits)) throw bad('invalid key_bits');
  } else if (keyType !== 'ed25519') throw bad('invalid key_type');
  const signatureBits = int(c, 'signature_bits') || 256;
  if (![256, 384, 512].includes(signatureBits)) throw bad('invalid signature_bits');
  const template = c.common_name_template ?? '';
  if (template === '') throw bad('missing required common_name_template');
  try {
    checkTemplate(template);
  } catch (err) {
    throw bad(`invalid common_name_template: ${(err as Error).message}`);
  }
  if (!c.ca_cert) throw bad('missing required ca_cert');
  if (!c.ca_private_key) throw bad('missing required ca_private_key');
  checkCa(c.ca_cert, c.ca_private_key);
  return {
    common_name_template: template,
    ca_cert: c.ca_cert,
    ca_private_key: c.ca_private_key,
    key_type: keyType,
    ...(bits ? { key_bits: String(bits) } : {}),
    signature_bits: String(signatureBits),
  };
}

/** The CA certificate must parse, be marked for CA use, and the key must be a private key. */
function checkCa(certPem: string, keyPem: string): void {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
  } catch {
    throw bad('certificate not found in the PEM bundle');
  }
  try {
    createPrivateKey(keyPem);
  } catch {
    throw bad('private key not found in the PEM bundle');
  }
  const constraints = cert.getExtension('2.5.29.19') as { ca?: boolean } | null;
  if (!constraints) throw bad('the given certificate does not meet basic constraints for CA use');
  if (!constraints.ca) throw bad('the given certificate is not marked for CA use');
}

/**
 * The role's `credential_config` for its type, checked and with the established defaults filled
 * in (what a read shows). 400 when a setting is invalid for the type. `checkTemplate` renders a
 * username template for empty metadata (throws when it cannot).
 */
export function checkCredentialConfig(
  type: CredentialType,
  config: Readonly<Record<string, string>>,
  checkTemplate: (source: string) => void,
): Record<string, string> {
  if (type === 'rsa_private_key') return rsaConfig(config);
  if (type === 'client_certificate') return certificateConfig(config, checkTemplate);
  return passwordConfig(config);
}

/**
 * The built-in PostgreSQL and MySQL plugins issue passwords only (they announce no other
 * credential type), so a role of another type is refused when credentials are asked for.
 */
export function requireSupported(type: CredentialType): void {
  if (type !== 'password') throw new InvalidRequestError(`unsupported credential_type: "${type}"`);
}
