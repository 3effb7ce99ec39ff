/** `x_forwarded_for_client_cert_header`: the client certificate a trusted proxy passes on in a header. @module */
import { X509Certificate } from 'node:crypto';

/** The established decoders, applied in the configured order. */
export const CLIENT_CERT_DECODERS = ['BASE64', 'DER', 'URL'] as const;
export type ClientCertDecoder = (typeof CLIENT_CERT_DECODERS)[number];

/** The certificate (DER), or the 400 message the request gets. */
export type ForwardedCertificate = { der: Uint8Array } | { error: string };

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/;
const BASE64_TEXT = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function decodeStep(value: Buffer, decoder: ClientCertDecoder): Buffer | string {
  switch (decoder) {
    case 'BASE64': {
      const text = value.toString('latin1');
      if (!BASE64_TEXT.test(text) || text.replace(/\s/g, '').length % 4 !== 0) {
        return 'failed to base64 decode the client certificate: illegal base64 data';
      }
      return Buffer.from(text.replace(/\s/g, ''), 'base64');
    }
    case 'URL':
      try {
        return Buffer.from(decodeURIComponent(value.toString('latin1').replace(/\+/g, ' ')), 'latin1');
      } catch (err) {
        return `failed to url unescape the client certificate: ${(err as Error).message}`;
      }
    case 'DER': {
      // As established: the PEM armour is taken off, leaving the DER it holds; DER already is kept.
      const pem = PEM_BLOCK.exec(value.toString('latin1'));
      if (pem) return Buffer.from((pem[1] ?? '').replace(/\s/g, ''), 'base64');
      if (value[0] === 0x30) return value;
      return 'failed to decode the client certificate: no PEM block found';
    }
  }
}

/** Decodes the header's value with `decoders` in order and parses the certificate it holds. */
export function decodeForwardedCertificate(
  header: string,
  decoders: readonly ClientCertDecoder[],
): ForwardedCertificate {
  let value: Buffer = Buffer.from(header, 'latin1');
  for (const decoder of decoders) {
    const next = decodeStep(value, decoder);
    if (typeof next === 'string') return { error: next };
    value = next;
  }
  const pem = PEM_BLOCK.exec(value.toString('latin1'));
  const der = pem ? Buffer.from((pem[1] ?? '').replace(/\s/g, ''), 'base64') : value;
  try {
    new X509Certificate(der);
  } catch (err) {
    return { error: `failed to parse the client certificate: ${(err as Error).message}` };
  }
  return { der };
}
