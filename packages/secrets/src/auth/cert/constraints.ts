import type { X509Certificate as NodeCertificate } from 'node:crypto';
import {
  AuthorityKeyIdentifierExtension,
  SubjectAlternativeNameExtension,
  SubjectKeyIdentifierExtension,
  X509Certificate,
} from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { globMatch } from '../common/glob.js';
import type { CertEntry } from './cert-store.js';

/** What a client certificate says about itself, read once for every constraint. */
export interface CertFacts {
  commonName: string;
  organizationalUnits: string[];
  dnsSans: string[];
  emailSans: string[];
  uriSans: string[];
  /** OID → the extension's value as a string (an ASN.1 string type), or its hex. */
  extensions: Map<string, string>;
  /** Hex, '' when absent. */
  subjectKeyId: string;
  authorityKeyId: string;
}

export function factsOf(cert: NodeCertificate): CertFacts {
  const parsed = new X509Certificate(cert.raw);
  const sans = parsed.getExtension(SubjectAlternativeNameExtension)?.names.items ?? [];
  const extensions = new Map<string, string>();
  for (const ext of parsed.extensions) extensions.set(ext.type, extensionText(ext.value));
  return {
    commonName: parsed.subjectName.getField('CN')[0] ?? '',
    organizationalUnits: parsed.subjectName.getField('OU'),
    dnsSans: sans.filter((n) => n.type === 'dns').map((n) => n.value),
    emailSans: sans.filter((n) => n.type === 'email').map((n) => n.value),
    uriSans: sans.filter((n) => n.type === 'url').map((n) => n.value),
    extensions,
    subjectKeyId: parsed.getExtension(SubjectKeyIdentifierExtension)?.keyId ?? '',
    authorityKeyId: parsed.getExtension(AuthorityKeyIdentifierExtension)?.keyId ?? '',
  };
}

/** An extension's value decoded as an ASN.1 string when it is one (as the established method compares it), else hex. */
function extensionText(value: ArrayBuffer): string {
  const parsed = asn1js.fromBER(value);
  const block = parsed.result as unknown as { getValue?: () => unknown };
  if (parsed.offset !== -1 && typeof block.getValue === 'function') {
    const text = block.getValue();
    if (typeof text === 'string') return text;
  }
  return Buffer.from(value).toString('hex');
}

const anyMatch = (patterns: string[], values: string[]) =>
  patterns.length === 0 || values.some((v) => patterns.some((p) => globMatch(p, v)));

/** Whether the client certificate's facts meet every constraint of the trusted entry. */
export function meetsConstraints(entry: CertEntry, facts: CertFacts): boolean {
  const names = [facts.commonName, ...facts.dnsSans, ...facts.emailSans];
  if (!anyMatch(entry.allowed_names, names)) return false;
  if (!anyMatch(entry.allowed_common_names, [facts.commonName])) return false;
  if (!anyMatch(entry.allowed_dns_sans, facts.dnsSans)) return false;
  if (!anyMatch(entry.allowed_email_sans, facts.emailSans)) return false;
  if (!anyMatch(entry.allowed_uri_sans, facts.uriSans)) return false;
  if (!anyMatch(entry.allowed_organizational_units, facts.organizationalUnits)) return false;
  for (const required of entry.required_extensions) {
    const at = required.indexOf(':');
    const oid = required.slice(0, at);
    const value = facts.extensions.get(oid);
    if (value === undefined || !globMatch(required.slice(at + 1), value)) return false;
  }
  return true;
}
