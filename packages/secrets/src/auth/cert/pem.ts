import { X509Certificate } from 'node:crypto';
import { InvalidRequestError } from '../../logical/errors.js';

const BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate of a PEM bundle; none, or one that does not parse, is a 400. */
export function parseCertificates(pem: string, field = 'certificate'): X509Certificate[] {
  const blocks = pem.match(BLOCK) ?? [];
  if (blocks.length === 0) throw new InvalidRequestError(`failed to parse ${field}: no PEM certificate found`);
  return blocks.map((block) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new InvalidRequestError(`failed to parse ${field}: ${(err as Error).message}`);
    }
  });
}

/** A serial number as the established method shows it: decimal. */
export function decimalSerial(hex: string): string {
  return BigInt(`0x${hex.replace(/[^0-9a-fA-F]/g, '') || '0'}`).toString();
}
