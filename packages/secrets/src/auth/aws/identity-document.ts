import { createHash, verify, X509Certificate } from 'node:crypto';
import { ContentInfo, id_signedData, SignedData } from '@peculiar/asn1-cms';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import * as asn1js from 'asn1js';
import { InvalidRequestError, PermissionDeniedError } from '../../logical/errors.js';

/** The fields of an EC2 instance identity document a login uses. */
export interface IdentityDocument {
  instanceId: string;
  imageId: string;
  accountId: string;
  region: string;
  pendingTime: string;
}

const HASHES = new Map([
  ['1.3.14.3.2.26', 'sha1'],
  ['2.16.840.1.101.3.4.2.1', 'sha256'],
  ['2.16.840.1.101.3.4.2.2', 'sha384'],
  ['2.16.840.1.101.3.4.2.3', 'sha512'],
]);
const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';

/**
 * Verifies a PKCS#7 signed identity document (base64 DER/BER, as the instance metadata service
 * serves it without PEM armour) with any of `pems`; returns the document. 403 when no
 * certificate verifies it, 400 when it is not PKCS#7 signed data.
 */
export function verifyPkcs7(pkcs7: string, pems: string[]): IdentityDocument {
  let signed: SignedData;
  let signedAttrs: Buffer | undefined;
  try {
    const der = Buffer.from(pkcs7.replace(/-----[A-Z0-9 ]+-----|\s/g, ''), 'base64');
    const info = AsnConvert.parse(der, ContentInfo);
    if (info.contentType !== id_signedData) throw new Error('not signed data');
    signed = AsnConvert.parse(info.content, SignedData);
    signedAttrs = signedAttributesOf(der);
  } catch {
    throw new InvalidRequestError('failed to parse the BER encoded PKCS#7 signature');
  }
  const content = signed.encapContentInfo.eContent;
  const bytes = content?.single ? Buffer.from(content.single.buffer) : content?.any ? octets(content.any) : undefined;
  if (!bytes || bytes.length === 0)
    throw new InvalidRequestError('instance identity document could not be found in the signature');
  const signer = signed.signerInfos[0];
  if (!signer) throw new PermissionDeniedError('failed to verify the signature');
  const hash = HASHES.get(signer.digestAlgorithm.algorithm);
  if (!hash) throw new PermissionDeniedError('failed to verify the signature: unsupported digest');
  let message = bytes;
  if (signedAttrs) {
    // The signature covers the DER of the signed attributes as a SET (their [0] tag replaced).
    const raw = Buffer.from(signedAttrs);
    raw[0] = 0x31;
    message = raw;
    const digest = signer.signedAttrs?.find((a) => a.attrType === MESSAGE_DIGEST)?.attrValues[0];
    const expected = digest ? Buffer.from(AsnConvert.parse(digest, OctetString).buffer) : Buffer.alloc(0);
    if (!expected.equals(createHash(hash).update(bytes).digest()))
      throw new PermissionDeniedError('failed to verify the signature: content digest mismatch');
  }
  const signature = Buffer.from(signer.signature.buffer);
  const isVerified = pems.some((pem) => {
    try {
      return verify(hash, message, new X509Certificate(pem).publicKey, signature);
    } catch {
      return false;
    }
  });
  if (!isVerified) throw new PermissionDeniedError('failed to verify the signature');
  return documentOf(bytes);
}

/**
 * The bytes of content the schema left encoded: a constructed OCTET STRING (BER, indefinite
 * length, as the metadata service signs it) whose chunks are joined; 400 when it is not one.
 */
function octets(encoded: ArrayBuffer): Buffer {
  const { result } = asn1js.fromBER(encoded);
  if (!(result instanceof asn1js.OctetString))
    throw new InvalidRequestError('the signed content is not an octet string');
  return Buffer.from(result.getValue());
}

/** The signed attributes of the first signer as encoded (the schema parser does not keep their bytes). */
function signedAttributesOf(der: Buffer): Buffer | undefined {
  type Node = asn1js.AsnType & {
    valueBlock: { value?: Node[] };
    idBlock: { tagClass: number; tagNumber: number };
    valueBeforeDecodeView: Uint8Array;
  };
  const { result } = asn1js.fromBER(der);
  const children = (n: Node | undefined) => n?.valueBlock.value ?? [];
  const signedData = children(children(result as Node)[1])[0];
  const infos = children(signedData);
  const first = children(infos[infos.length - 1])[0];
  const attrs = children(first).find((e) => e.idBlock.tagClass === 3 && e.idBlock.tagNumber === 0);
  return attrs ? Buffer.from(attrs.valueBeforeDecodeView) : undefined;
}

/** Verifies a document and its SHA256-RSA `signature` (both base64) with any of `pems`. */
export function verifySignedDocument(identity: string, signature: string, pems: string[]): IdentityDocument {
  const bytes = Buffer.from(identity, 'base64');
  const sig = Buffer.from(signature.replace(/\s/g, ''), 'base64');
  const isVerified = pems.some((pem) => {
    try {
      return verify('sha256', bytes, new X509Certificate(pem).publicKey, sig);
    } catch {
      return false;
    }
  });
  if (!isVerified) throw new PermissionDeniedError('failed to verify the signature');
  return documentOf(bytes);
}

function documentOf(bytes: Buffer): IdentityDocument {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidRequestError('the instance identity document is not JSON');
  }
  const text = (name: string) => (typeof doc[name] === 'string' ? (doc[name] as string) : '');
  const out = {
    instanceId: text('instanceId'),
    imageId: text('imageId'),
    accountId: text('accountId'),
    region: text('region'),
    pendingTime: text('pendingTime'),
  };
  if (!out.instanceId || !out.region) throw new InvalidRequestError('the identity document lacks instanceId or region');
  return out;
}
