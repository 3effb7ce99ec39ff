import { createHash, verify, X509Certificate } from 'node:crypto';
import {
  BasicOCSPResponse,
  CertID,
  id_pkix_ocsp_basic,
  id_pkix_ocsp_nonce,
  OCSPRequest,
  OCSPResponse,
  OCSPResponseStatus,
  Request,
  TBSRequest,
} from '@peculiar/asn1-ocsp';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  Certificate,
  ExtendedKeyUsage,
  Extension,
  id_ce_extKeyUsage,
  id_kp_OCSPSigning,
} from '@peculiar/asn1-x509';
import type { Random } from '@ward/base';
import type { OcspCache } from './ocsp-cache.js';

/**
 * The OCSP check of a login certificate (RFC 6960), as the established cert method makes it with a
 * trusted certificate's `ocsp_*` settings: a request for the leaf (SHA-1 CertID) POSTed to each
 * server (`ocsp_servers_override`, else the leaf's AIA OCSP URLs), the answer's signature checked
 * against the issuer, a responder it delegated to, or `ocsp_ca_certificates`. The ASN.1 is
 * @peculiar/asn1-ocsp's; HTTP is Node's `fetch`.
 *
 * Each request carries a fresh nonce (RFC 8954); an answer that echoes a nonce must echo ours, so
 * a recorded answer replayed for a later request is refused. Definite answers (good, revoked) are
 * cached per server and certificate until their nextUpdate (`OcspCache`, `ocsp_cache_size`).
 */

export type OcspVerdict = 'good' | 'revoked' | 'unknown' | 'error';

export interface OcspSettings {
  servers: string[];
  /** Extra certificates that may sign answers (PEM bundle). */
  caCertificates: string;
  failOpen: boolean;
  queryAllServers: boolean;
}

export interface OcspDeps {
  cache: OcspCache;
  random: Random;
}

const SHA1 = '1.3.14.3.2.26';
const NONCE_BYTES = 16;
const TIMEOUT_MS = 5000;
const MAX_RESPONSE_BYTES = 256 * 1024;
/** Signature algorithms an answer may use: Node's hash for each (null: ed25519). */
const SIGNATURE_HASHES = new Map<string, string | null>([
  ['1.2.840.113549.1.1.5', 'sha1'],
  ['1.2.840.113549.1.1.11', 'sha256'],
  ['1.2.840.113549.1.1.12', 'sha384'],
  ['1.2.840.113549.1.1.13', 'sha512'],
  ['1.2.840.10045.4.3.2', 'sha256'],
  ['1.2.840.10045.4.3.3', 'sha384'],
  ['1.2.840.10045.4.3.4', 'sha512'],
  ['1.3.101.112', null],
]);
/** RFC 6960's allowance for clocks that differ a little. */
const SKEW_MS = 5 * 60 * 1000;

const sha1 = (data: ArrayBuffer | Uint8Array) =>
  createHash('sha1')
    .update(data instanceof Uint8Array ? data : new Uint8Array(data))
    .digest();

function certIdOf(leaf: X509Certificate, issuer: X509Certificate): CertID {
  const leafAsn = AsnConvert.parse(leaf.raw, Certificate);
  const issuerAsn = AsnConvert.parse(issuer.raw, Certificate);
  return new CertID({
    hashAlgorithm: new AlgorithmIdentifier({ algorithm: SHA1, parameters: null }),
    issuerNameHash: new OctetString(sha1(AsnConvert.serialize(leafAsn.tbsCertificate.issuer))),
    issuerKeyHash: new OctetString(sha1(issuerAsn.tbsCertificate.subjectPublicKeyInfo.subjectPublicKey)),
    serialNumber: leafAsn.tbsCertificate.serialNumber,
  });
}

/** The OCSP URLs of the leaf's Authority Information Access. */
export function aiaOcspServers(leaf: X509Certificate): string[] {
  return (leaf.infoAccess ?? '')
    .split('\n')
    .filter((line) => line.startsWith('OCSP - URI:'))
    .map((line) => line.slice('OCSP - URI:'.length).trim());
}

function sameBytes(a: ArrayBuffer | OctetString, b: ArrayBuffer | OctetString): boolean {
  const bytes = (v: ArrayBuffer | OctetString) => Buffer.from(v instanceof OctetString ? v.buffer : v);
  return bytes(a).equals(bytes(b));
}

/** The certificates whose key may sign the answer: the issuer, responders it delegated to, the configured ones. */
function signersOf(basic: BasicOCSPResponse, issuer: X509Certificate, extra: X509Certificate[]): X509Certificate[] {
  const delegated = (basic.certs ?? [])
    .map((c) => new X509Certificate(Buffer.from(AsnConvert.serialize(c))))
    .filter((c) => {
      if (!c.checkIssued(issuer) || !c.verify(issuer.publicKey)) return false;
      const asn = AsnConvert.parse(c.raw, Certificate);
      const eku = asn.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_extKeyUsage);
      if (!eku) return false;
      return AsnConvert.parse(eku.extnValue, ExtendedKeyUsage).includes(id_kp_OCSPSigning);
    });
  return [issuer, ...delegated, ...extra];
}

interface Answer {
  verdict: OcspVerdict;
  /** The answer's nextUpdate; absent: not to be cached. */
  nextUpdateMs?: number;
}

const ERROR: Answer = { verdict: 'error' };

/** What one answer says about the leaf, after checking its signature, dates and nonce. */
function answerOf(der: Buffer, asked: Asked, issuer: X509Certificate, extra: X509Certificate[], nowMs: number): Answer {
  const { id } = asked;
  const response = AsnConvert.parse(der, OCSPResponse);
  if (response.responseStatus !== OCSPResponseStatus.successful || !response.responseBytes) return ERROR;
  if (response.responseBytes.responseType !== id_pkix_ocsp_basic) return ERROR;
  const basic = AsnConvert.parse(response.responseBytes.response.buffer, BasicOCSPResponse);
  const hash = SIGNATURE_HASHES.get(basic.signatureAlgorithm.algorithm);
  if (hash === undefined) return ERROR;
  const tbs = Buffer.from(AsnConvert.serialize(basic.tbsResponseData));
  const signature = Buffer.from(basic.signature);
  const signed = signersOf(basic, issuer, extra).some((c) => {
    try {
      return verify(hash, tbs, c.publicKey, signature);
    } catch {
      return false;
    }
  });
  if (!signed) return ERROR;
  // A responder need not echo the nonce (many precompute answers); one that does must echo ours.
  const echoed = basic.tbsResponseData.responseExtensions?.find((e) => e.extnID === id_pkix_ocsp_nonce);
  if (echoed && !sameBytes(echoed.extnValue, asked.nonce)) return ERROR;
  const single = basic.tbsResponseData.responses.find(
    (r) =>
      sameBytes(r.certID.serialNumber, id.serialNumber) &&
      sameBytes(r.certID.issuerKeyHash, id.issuerKeyHash) &&
      sameBytes(r.certID.issuerNameHash, id.issuerNameHash),
  );
  if (!single) return ERROR;
  if (single.thisUpdate.getTime() > nowMs + SKEW_MS) return ERROR;
  if (single.nextUpdate && single.nextUpdate.getTime() < nowMs - SKEW_MS) return ERROR;
  const nextUpdateMs = single.nextUpdate?.getTime();
  const dates = nextUpdateMs === undefined ? {} : { nextUpdateMs };
  if (single.certStatus.revoked) return { verdict: 'revoked', ...dates };
  if (single.certStatus.good !== undefined) return { verdict: 'good', ...dates };
  return { verdict: 'unknown' };
}

/** One request: the leaf's CertID and the nonce it carries (the DER of the OCTET STRING, as in extnValue). */
interface Asked {
  id: CertID;
  nonce: OctetString;
  body: Uint8Array;
}

function requestFor(id: CertID, random: Random): Asked {
  const nonce = new OctetString(AsnConvert.serialize(new OctetString(random.bytes(NONCE_BYTES))));
  const nonceExtension = new Extension({ extnID: id_pkix_ocsp_nonce, critical: false, extnValue: nonce });
  const tbsRequest = new TBSRequest({
    requestList: [new Request({ reqCert: id })],
    requestExtensions: [nonceExtension],
  });
  return { id, nonce, body: new Uint8Array(AsnConvert.serialize(new OCSPRequest({ tbsRequest }))) };
}

/** The cache key of one server's answer about one certificate, as checked against these extra signers. */
const cacheKey = (url: string, caCertificates: string, id: CertID) =>
  createHash('sha256')
    .update(url)
    .update('\0')
    .update(caCertificates)
    .update('\0')
    .update(new Uint8Array(AsnConvert.serialize(id)))
    .digest('base64url');

async function ask(url: string, body: Uint8Array): Promise<Buffer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/ocsp-request', accept: 'application/ocsp-response' },
    body: Buffer.from(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`OCSP server ${url} answered ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > MAX_RESPONSE_BYTES) throw new Error('OCSP answer too large');
  return bytes;
}

/**
 * Whether the leaf may log in as far as OCSP goes: never when an answer says revoked; when no
 * server gives a usable answer (or, with `queryAllServers`, any fails), only with `failOpen`.
 */
export async function ocspAllows(
  leaf: X509Certificate,
  issuer: X509Certificate,
  settings: OcspSettings,
  nowMs: number,
  deps: OcspDeps,
): Promise<boolean> {
  const servers = settings.servers.length > 0 ? settings.servers : aiaOcspServers(leaf);
  if (servers.length === 0) return settings.failOpen;
  const extra = (
    settings.caCertificates.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  ).map((pem) => new X509Certificate(pem));
  const id = certIdOf(leaf, issuer);
  const verdicts: OcspVerdict[] = [];
  for (const url of servers) {
    const key = cacheKey(url, settings.caCertificates, id);
    const verdict = deps.cache.get(key, nowMs) ?? (await askAndCache(url, key, id, issuer, extra, nowMs, deps));
    if (verdict === 'revoked') return false;
    verdicts.push(verdict);
    if (verdict === 'good' && !settings.queryAllServers) return true;
  }
  if (verdicts.every((v) => v === 'good')) return true;
  return settings.failOpen;
}

async function askAndCache(
  url: string,
  key: string,
  id: CertID,
  issuer: X509Certificate,
  extra: X509Certificate[],
  nowMs: number,
  deps: OcspDeps,
): Promise<OcspVerdict> {
  const asked = requestFor(id, deps.random);
  let answer: Answer;
  try {
    answer = answerOf(await ask(url, asked.body), asked, issuer, extra, nowMs);
  } catch {
    return 'error';
  }
  const { verdict, nextUpdateMs } = answer;
  if ((verdict === 'good' || verdict === 'revoked') && nextUpdateMs !== undefined && nextUpdateMs > nowMs)
    deps.cache.set(key, { verdict, nextUpdateMs });
  return verdict;
}
