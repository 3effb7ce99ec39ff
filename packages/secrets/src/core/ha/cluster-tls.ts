import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { getJson, putJson, type Storage } from '../../logical/storage.js';

/** The cluster's own certificate authority and key pair, for mutual TLS between its servers. */
export interface ClusterTls {
  /** A self-signed certificate: the cluster's CA and every member's client and server certificate. */
  cert: string;
  key: string;
}

/** Behind the barrier: only a server unsealed with the cluster's keys can read it, so only such a server can forward. */
const CLUSTER_TLS_KEY = 'core/ha/cluster-tls';
const YEAR_MS = 365 * 86_400_000;

/** The cluster's TLS material, or `undefined` before any server of the cluster has been active. */
export function readClusterTls(barrier: Storage): Promise<ClusterTls | undefined> {
  return getJson<ClusterTls>(barrier, CLUSTER_TLS_KEY);
}

/** Run by a server becoming active: the first active server of a cluster generates the pair, the later ones reuse it. */
export async function ensureClusterTls(barrier: Storage, nowMs: number): Promise<ClusterTls> {
  const existing = await readClusterTls(barrier);
  if (existing) return existing;
  const created = generateClusterTls(nowMs);
  await putJson(barrier, CLUSTER_TLS_KEY, created);
  return created;
}

/**
 * The key comes from Node's crypto; node-forge only assembles and signs the certificate (Node has
 * no API to issue one). Peers check each other against this one certificate, never by host name.
 */
function generateClusterTls(nowMs: number): ClusterTls {
  const pems = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const privateKey = forge.pki.privateKeyFromPem(pems.privateKey);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(pems.publicKey);
  // A positive serial: a leading byte below 0x80 keeps the DER integer from reading as negative.
  cert.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
  cert.validity.notBefore = new Date(nowMs - 60_000);
  cert.validity.notAfter = new Date(nowMs + 10 * YEAR_MS);
  const subject = [{ name: 'commonName', value: 'ward-cluster' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: 'ward-cluster' }] },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(privateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: pems.privateKey };
}
