import sshpk from 'sshpk';
import { signAsync } from 'sshpk/lib/formats/openssh-cert.js';
import { InvalidRequestError } from '../../logical/errors.js';

/** What a certificate says; times in Unix seconds. */
export interface CertificateSpec {
  publicKey: sshpk.Key;
  type: 'user' | 'host';
  keyId: string;
  principals: string[];
  validAfter: number;
  validBefore: number;
  /** 8 bytes, big-endian. */
  serial: Buffer;
  criticalOptions: ReadonlyMap<string, string>;
  extensions: ReadonlyMap<string, string>;
  /** The nonce the certificate starts with (random: it keeps signatures over chosen data apart). */
  nonce: Buffer;
}

/** An option's or extension's data: empty, or the value as an SSH string. */
function optionData(value: string): Buffer {
  if (value === '') return Buffer.alloc(0);
  const bytes = Buffer.from(value, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** The hash of `algorithm_signer` (RSA CAs; other keys have one). `default` and empty: SHA-256, never SHA-1. */
function hashOf(signer: string, ca: sshpk.PrivateKey): sshpk.AlgorithmHashType | undefined {
  if (ca.type !== 'rsa') return undefined;
  if (signer === 'ssh-rsa') return 'sha1';
  if (signer === 'rsa-sha2-512') return 'sha512';
  return 'sha256';
}

/**
 * Signs an OpenSSH certificate of `spec` with the CA key through `sshpk` (its own RSA signing
 * would use SHA-1, which OpenSSH refuses for CAs since 8.2); resolves with the
 * `…-cert-v01@openssh.com` line.
 */
export function signCertificate(spec: CertificateSpec, caPem: string, algorithmSigner: string): Promise<string> {
  const ca = sshpk.parsePrivateKey(caPem, 'auto');
  const subjects = spec.principals.map((p) =>
    spec.type === 'host' ? sshpk.identityForHost(p) : sshpk.identityForUser(p),
  );
  if (subjects.length === 0) {
    // OpenSSH: no principals means any; sshpk needs one subject to know the type.
    subjects.push(spec.type === 'host' ? sshpk.identityForHost('*') : sshpk.identityForUser('*'));
  }
  const cert = sshpk.createCertificate(subjects, spec.publicKey, sshpk.identityForUser('ca'), ca, {
    validFrom: new Date(spec.validAfter * 1000),
    validUntil: new Date(spec.validBefore * 1000),
    serial: spec.serial,
  });
  const exts = [
    ...[...spec.criticalOptions].map(([name, value]) => ({ name, critical: true, data: optionData(value) })),
    ...[...spec.extensions].map(([name, value]) => ({ name, critical: false, data: optionData(value) })),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  (cert.signatures as Record<string, unknown>).openssh = { keyId: spec.keyId, exts, nonce: spec.nonce };
  const hash = hashOf(algorithmSigner, ca);
  return new Promise((resolve, reject) => {
    signAsync(
      cert,
      (blob, done) => {
        try {
          const signer = ca.createSign(hash as sshpk.AlgorithmHashType);
          signer.update(blob);
          done(null, signer.sign());
        } catch (err) {
          done(err as Error);
        }
      },
      (err) => (err ? reject(err) : resolve(`${cert.toString('openssh')}\n`)),
    );
  });
}

/** Parses a public key as sent to `sign` (OpenSSH one-line format). */
export function parsePublicKey(text: string): sshpk.Key {
  try {
    return sshpk.parseKey(text.trim(), 'ssh');
  } catch (err) {
    throw new InvalidRequestError(`failed to parse public_key as SSH key: ${(err as Error).message}`);
  }
}
