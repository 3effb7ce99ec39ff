import { createHash } from 'node:crypto';
import { randomUuid } from '@ward/base';
import { InternalError, InvalidRequestError } from '../../logical/errors.js';
import { getJson, type Storage } from '../../logical/storage.js';
import type { PkiDeps } from './deps.js';
import { keyPairOfRecord, publicKeyOfRecord } from './key-records.js';
import { describeKey, parsePrivateKey, signingAlgorithm, spkiOf } from './keys.js';
import { type IssuerRecord, type KeyRecord, pkiStore } from './pki-store.js';
import { certificatePem, crypto, type Signer, showSerial, x509 } from './x509.js';

/** An id derived from `text`, in UUID form: the same on every server and every retry. */
function derivedId(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Mounts made before issue 32 kept one RSA root under `ca`: it becomes the default issuer and key,
 * with ids derived from the certificate so that concurrent upgrades agree.
 */
async function upgradeLegacyCa(storage: Storage): Promise<void> {
  const legacy = await getJson<{ certificate: string; private_key: string }>(storage, 'ca');
  if (!legacy) return;
  const cert = new x509.X509Certificate(legacy.certificate);
  const keyObject = parsePrivateKey(legacy.private_key);
  const { type, bits } = describeKey(keyObject);
  const key: KeyRecord = {
    key_id: derivedId(`key:${legacy.certificate}`),
    key_name: '',
    key_type: type,
    key_bits: bits,
    private_key: legacy.private_key,
  };
  await pkiStore.putKey(storage, key);
  await pkiStore.putIssuer(storage, {
    issuer_id: derivedId(`issuer:${legacy.certificate}`),
    issuer_name: '',
    key_id: key.key_id,
    certificate: certificatePem(cert),
    serial_number: showSerial(cert.serialNumber),
    expiration: Math.floor(cert.notAfter.getTime() / 1000),
    leaf_not_after_behavior: 'err',
    usage: ['read-only', 'issuing-certificates', 'crl-signing', 'ocsp-signing'],
    manual_chain: [],
    revoked: false,
    revocation_time: 0,
  });
  await pkiStore.putIssuersConfig(storage, {
    default: derivedId(`issuer:${legacy.certificate}`),
    default_follows_latest_issuer: false,
  });
  await pkiStore.putKeysConfig(storage, { default: key.key_id });
  await storage.delete('ca');
}

/** The issuers of a mount, by id. */
export async function allIssuers(storage: Storage): Promise<IssuerRecord[]> {
  await upgradeLegacyCa(storage);
  const out: IssuerRecord[] = [];
  for (const id of await pkiStore.issuerIds(storage)) {
    const issuer = await pkiStore.issuer(storage, id);
    if (issuer) out.push(issuer);
  }
  return out;
}

/** The issuer `ref` names: `default`, an id or a name; 400 as established when there is none. */
export async function resolveIssuer(storage: Storage, ref: string): Promise<IssuerRecord> {
  const wanted = ref || 'default';
  await upgradeLegacyCa(storage);
  if (wanted === 'default') {
    const { default: id } = await pkiStore.issuersConfig(storage);
    const issuer = id ? await pkiStore.issuer(storage, id) : undefined;
    if (!issuer) throw new InvalidRequestError('no default issuer currently configured');
    return issuer;
  }
  const byId = await pkiStore.issuer(storage, wanted);
  if (byId) return byId;
  const byName = (await allIssuers(storage)).find((i) => i.issuer_name === wanted);
  // The established server answers an unknown reference with 500 (hvac's tests expect it).
  if (!byName) throw new InternalError(`unable to find PKI issuer for reference: ${wanted}`);
  return byName;
}

/** The key `ref` names: `default`, an id or a name. */
export async function resolveKey(storage: Storage, ref: string): Promise<KeyRecord> {
  const wanted = ref || 'default';
  if (wanted === 'default') {
    const { default: id } = await pkiStore.keysConfig(storage);
    const key = id ? await pkiStore.key(storage, id) : undefined;
    if (!key) throw new InvalidRequestError('no default key currently configured');
    return key;
  }
  const byId = await pkiStore.key(storage, wanted);
  if (byId) return byId;
  for (const id of await pkiStore.keyIds(storage)) {
    const key = await pkiStore.key(storage, id);
    if (key?.key_name === wanted) return key;
  }
  throw new InvalidRequestError(`unable to find PKI key for reference: ${wanted}`);
}

/** What signs for `issuer`: its certificate and its key. */
export async function signerOf(
  d: PkiDeps,
  storage: Storage,
  issuer: IssuerRecord,
  signatureBits = 0,
  usePss = false,
): Promise<Required<Signer>> {
  const key = issuer.key_id ? await pkiStore.key(storage, issuer.key_id) : undefined;
  if (!key) throw new InvalidRequestError(`issuer ${issuer.issuer_id} has no key on this mount and cannot sign`);
  if (!issuer.usage.includes('issuing-certificates') && !issuer.usage.includes('crl-signing'))
    throw new InvalidRequestError(`issuer ${issuer.issuer_id} may not sign (usage)`);
  const algorithm = signingAlgorithm(key.key_type, key.key_bits, signatureBits, usePss);
  const { privateKey } = await keyPairOfRecord(d, key, algorithm);
  return { certificate: new x509.X509Certificate(issuer.certificate), privateKey, algorithm };
}

/** Stores a private key, or finds the one already stored with the same public key. */
export async function importKey(
  d: PkiDeps,
  storage: Storage,
  pem: string,
  name = '',
): Promise<{ key: KeyRecord; isNew: boolean }> {
  const keyObject = parsePrivateKey(pem);
  const spki = spkiOf(keyObject);
  for (const id of await pkiStore.keyIds(storage)) {
    const existing = await pkiStore.key(storage, id);
    if (existing && spkiOf(publicKeyOfRecord(existing)).equals(spki)) return { key: existing, isNew: false };
  }
  const { type, bits } = describeKey(keyObject);
  const key: KeyRecord = {
    key_id: randomUuid(d.random),
    key_name: name,
    key_type: type,
    key_bits: bits,
    private_key: keyObject.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
  await pkiStore.putKey(storage, key);
  const config = await pkiStore.keysConfig(storage);
  if (!config.default) await pkiStore.putKeysConfig(storage, { default: key.key_id });
  return { key, isNew: true };
}

/** The stored key whose public half is the certificate's, if any. */
async function keyFor(storage: Storage, cert: x509.X509Certificate): Promise<string> {
  const spki = Buffer.from(cert.publicKey.rawData);
  for (const id of await pkiStore.keyIds(storage)) {
    const key = await pkiStore.key(storage, id);
    if (key && spkiOf(publicKeyOfRecord(key)).equals(spki)) return key.key_id;
  }
  return '';
}

/**
 * Makes `cert` an issuer of the mount (or finds the issuer it already is), linked to the stored key
 * of its public key; the first issuer becomes the default, as established.
 */
export async function importIssuer(
  d: PkiDeps,
  storage: Storage,
  cert: x509.X509Certificate,
  name = '',
): Promise<{ issuer: IssuerRecord; isNew: boolean }> {
  const pem = certificatePem(cert);
  const issuers = await allIssuers(storage);
  const existing = issuers.find((i) => i.certificate.trim() === pem);
  if (existing) {
    if (!existing.key_id) {
      existing.key_id = await keyFor(storage, cert);
      if (existing.key_id) await pkiStore.putIssuer(storage, existing);
    }
    return { issuer: existing, isNew: false };
  }
  const basic = cert.getExtension(x509.BasicConstraintsExtension);
  if (!basic?.ca) throw new InvalidRequestError('refusing to import non-CA certificate');
  if (name && issuers.some((i) => i.issuer_name === name))
    throw new InvalidRequestError(`issuer name already in use: ${name}`);
  const issuer: IssuerRecord = {
    issuer_id: randomUuid(d.random),
    issuer_name: name,
    key_id: await keyFor(storage, cert),
    certificate: pem,
    serial_number: showSerial(cert.serialNumber),
    expiration: Math.floor(cert.notAfter.getTime() / 1000),
    leaf_not_after_behavior: 'err',
    usage: ['read-only', 'issuing-certificates', 'crl-signing', 'ocsp-signing'],
    manual_chain: [],
    revoked: false,
    revocation_time: 0,
  };
  await pkiStore.putIssuer(storage, issuer);
  const config = await pkiStore.issuersConfig(storage);
  if (!config.default || config.default_follows_latest_issuer)
    await pkiStore.putIssuersConfig(storage, { ...config, default: issuer.issuer_id });
  return { issuer, isNew: true };
}

/** Whether `parent` signed `child` (names match and the signature verifies). */
async function isSignedBy(child: x509.X509Certificate, parent: x509.X509Certificate): Promise<boolean> {
  if (child.issuer !== parent.subject) return false;
  return child.verify({ publicKey: await parent.publicKey.export(crypto), signatureOnly: true }, crypto);
}

/** The CA chain of `issuer`: its certificate, then each parent the mount holds, up to a self-signed root. */
export async function chainOf(storage: Storage, issuer: IssuerRecord): Promise<string[]> {
  if (issuer.manual_chain.length > 0) {
    const manual: string[] = [];
    for (const id of issuer.manual_chain) {
      const link = id === issuer.issuer_id ? issuer : await pkiStore.issuer(storage, id);
      if (link) manual.push(link.certificate.trim());
    }
    return manual;
  }
  const issuers = await allIssuers(storage);
  const chain = [issuer.certificate.trim()];
  let current = new x509.X509Certificate(issuer.certificate);
  for (let depth = 0; depth < 10 && current.subject !== current.issuer; depth++) {
    let next: x509.X509Certificate | undefined;
    for (const candidate of issuers) {
      const cert = new x509.X509Certificate(candidate.certificate);
      if (!chain.includes(candidate.certificate.trim()) && (await isSignedBy(current, cert))) {
        next = cert;
        break;
      }
    }
    if (!next) break;
    chain.push(certificatePem(next));
    current = next;
  }
  return chain;
}

/** The public key (SPKI PEM) of a key record, for key reads. */
export function publicKeyPem(key: KeyRecord): string {
  return publicKeyOfRecord(key).export({ format: 'pem', type: 'spki' }).toString();
}
