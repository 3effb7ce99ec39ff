import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import forge from 'node-forge';

export interface DevTlsFiles {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  /** Deletes the files it wrote, and the directory only if it created it (never what was there before). */
  remove(): Promise<void>;
}

const DAY_MS = 86_400_000;

/**
 * `-dev-tls`: a throwaway CA and a server certificate for localhost, 127.0.0.1 and ::1,
 * written to a fresh private directory (or `dir`). Clients trust it with `VAULT_CACERT`.
 * Keys come from Node's own crypto; node-forge only assembles and signs the certificates,
 * as Node has no API to issue X.509 certificates.
 */
export async function createDevTls(nowMs: number, dir?: string): Promise<DevTlsFiles> {
  const target = dir ?? (await mkdtemp(join(tmpdir(), 'ward-tls-')));
  // The first directory `mkdir` had to create (undefined when `dir` existed): removed again on exit.
  const createdTop = dir === undefined ? target : await mkdir(dir, { recursive: true, mode: 0o700 });
  const caKeys = rsaKeys();
  const ca = newCertificate(caKeys.publicKey, nowMs, [{ name: 'commonName', value: 'Ward dev CA' }]);
  ca.setIssuer(ca.subject.attributes);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const serverKeys = rsaKeys();
  const cert = newCertificate(serverKeys.publicKey, nowMs, [{ name: 'commonName', value: 'localhost' }]);
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
      ],
    },
  ]);
  cert.sign(caKeys.privateKey, forge.md.sha256.create());

  const files = {
    dir: target,
    caFile: join(target, 'ward-ca.pem'),
    certFile: join(target, 'ward-cert.pem'),
    keyFile: join(target, 'ward-key.pem'),
    remove: async () => {
      const written = ['ward-ca.pem', 'ward-cert.pem', 'ward-key.pem'].map((name) => join(target, name));
      await Promise.all(written.map((file) => rm(file, { force: true })));
      if (createdTop !== undefined) await removeEmptyDirs(target, createdTop);
    },
  };
  await writeFile(files.caFile, forge.pki.certificateToPem(ca), { mode: 0o644 });
  await writeFile(files.certFile, forge.pki.certificateToPem(cert), { mode: 0o644 });
  await writeFile(files.keyFile, forge.pki.privateKeyToPem(serverKeys.privateKey), { mode: 0o600 });
  return files;
}

/** Removes `dir` and its parents up to `top`, each only if empty: a file someone added since stays. */
async function removeEmptyDirs(dir: string, top: string): Promise<void> {
  for (let current = dir; ; current = dirname(current)) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
    if (current === top) return;
  }
}

function rsaKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: forge.pki.publicKeyFromPem(publicKey), privateKey: forge.pki.privateKeyFromPem(privateKey) };
}

function newCertificate(publicKey: forge.pki.PublicKey, nowMs: number, subject: forge.pki.CertificateField[]) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive serial: a leading byte below 0x80 keeps the DER integer from reading as negative.
  cert.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
  cert.validity.notBefore = new Date(nowMs - 60_000);
  cert.validity.notAfter = new Date(nowMs + 365 * DAY_MS);
  cert.setSubject(subject);
  return cert;
}
