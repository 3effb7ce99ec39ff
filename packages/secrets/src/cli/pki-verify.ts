import { X509Certificate as NodeCertificate } from 'node:crypto';
import {
  AuthorityKeyIdentifierExtension,
  X509Certificate as PeculiarCertificate,
  SubjectKeyIdentifierExtension,
} from '@peculiar/x509';
import type { Client } from '@ward/secrets-client';
import { CliError } from './command.js';

/** A certificate read from an issuer (or cert) path: the certificate and the chain shown with it. */
export interface CertificateRead {
  path: string;
  certificate: string;
  caChain: string[];
}

/** The five findings of `pki verify-sign`, in the order the established JSON prints them. */
export interface SignFindings {
  key_id_match: boolean;
  path_match: boolean;
  signature_match: boolean;
  subject_match: boolean;
  trust_match: boolean;
}

/** `MOUNT/issuer/REF[/json]` or `MOUNT/cert/SERIAL`, read as established: `certificate` and `ca_chain` required. */
export async function readCertificate(client: Client, path: string): Promise<CertificateRead> {
  const secret = await client.read(path);
  const certificate = secret?.data?.certificate;
  if (typeof certificate !== 'string' || certificate === '') {
    throw new CliError(`${path} has no certificate field`, 2);
  }
  const chain = secret?.data?.ca_chain;
  if (!Array.isArray(chain)) throw new CliError(`${path} has no ca_chain field`, 2);
  const caChain = chain.filter((pem): pem is string => typeof pem === 'string' && pem.trim() !== '');
  return { path, certificate, caChain };
}

/**
 * Whether `issuer` issued `issued`, as established: its key made the signature, its subject is
 * the issued certificate's issuer, its key id is the authority key id, it appears in the issued
 * certificate's `ca_chain`, and (trust) trusting it alone is enough to trust the issued
 * certificate now: a CA within its validity that signed it, or the certificate itself.
 */
export function verifySignBetween(issuer: CertificateRead, issued: CertificateRead, nowMs: number): SignFindings {
  const parent = parse(issuer);
  const child = parse(issued);
  const signature_match = child.node.verify(parent.node.publicKey);
  const subject_match = sameBytes(
    parent.peculiar.subjectName.toArrayBuffer(),
    child.peculiar.issuerName.toArrayBuffer(),
  );
  const skid = parent.peculiar.getExtension(SubjectKeyIdentifierExtension)?.keyId;
  const akid = child.peculiar.getExtension(AuthorityKeyIdentifierExtension)?.keyId;
  const parentRaw = parent.node.raw;
  const path_match = issued.caChain.some((pem) => tryParse(pem)?.raw.equals(parentRaw) === true);
  const within = (c: NodeCertificate) => c.validFromDate.getTime() <= nowMs && nowMs <= c.validToDate.getTime();
  const trust_match =
    within(child.node) &&
    within(parent.node) &&
    (child.node.raw.equals(parentRaw) || (parent.node.ca && signature_match && subject_match));
  return { key_id_match: (skid ?? '') === (akid ?? ''), path_match, signature_match, subject_match, trust_match };
}

function parse(read: CertificateRead): { node: NodeCertificate; peculiar: PeculiarCertificate } {
  try {
    return { node: new NodeCertificate(read.certificate), peculiar: new PeculiarCertificate(read.certificate) };
  } catch (err) {
    throw new CliError(`unable to parse the certificate of ${read.path}: ${(err as Error).message}`, 2);
  }
}

function tryParse(pem: string): NodeCertificate | undefined {
  try {
    return new NodeCertificate(pem);
  } catch {
    return undefined;
  }
}

function sameBytes(a: ArrayBuffer, b: ArrayBuffer): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}
