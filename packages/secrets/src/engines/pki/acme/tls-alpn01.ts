import { createHash, type X509Certificate as NodeCertificate, timingSafeEqual } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { connect } from 'node:tls';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { x509 } from '../x509.js';
import { AcmeProblem } from './jws.js';

const HANDSHAKE_TIMEOUT_MS = 30_000;
const ALPN_PROTOCOL = 'acme-tls/1';
/** id-pe-acmeIdentifier (RFC 8737 6.1). */
const ACME_IDENTIFIER_OID = '1.3.6.1.5.5.7.1.31';
/** The critical extensions a validation certificate may carry besides acmeIdentifier. */
const UNDERSTOOD_CRITICAL = new Set(['2.5.29.15', '2.5.29.17', '2.5.29.19', '2.5.29.37', ACME_IDENTIFIER_OID]);

/**
 * Whether a TLS server at `domain` answers the tls-alpn-01 challenge (RFC 8737 3): a handshake
 * with SNI `domain` and ALPN `acme-tls/1` only, which the server negotiates, showing one
 * self-signed certificate whose only SAN is `domain` and whose critical acmeIdentifier extension
 * holds the SHA-256 of the key authorization. `port` is 443, as the RFC fixes, except in tests.
 */
export async function validateTlsAlpn01(
  domain: string,
  keyAuthorization: string,
  port: number,
  lookup?: LookupFunction,
): Promise<void> {
  const cert = await handshake(domain, port, lookup);
  const fail = (detail: string) => new AcmeProblem('incorrectResponse', `tls-alpn-01: ${detail}`, 400);
  if (cert.subject !== cert.issuer || !cert.verify(cert.publicKey))
    throw fail('the server returned a certificate that is not self-signed');
  const parsed = new x509.X509Certificate(cert.raw);
  const san = parsed.getExtension(x509.SubjectAlternativeNameExtension);
  const names = san?.names.items ?? [];
  if (names.length !== 1 || names[0]?.type !== 'dns' || names[0].value.toLowerCase() !== domain.toLowerCase())
    throw fail(`the certificate's subjectAltName must be the single DNS name ${domain}`);
  const identifiers = parsed.extensions.filter((e) => e.type === ACME_IDENTIFIER_OID);
  const identifier = identifiers[0];
  if (identifiers.length !== 1 || !identifier)
    throw fail('the certificate must carry exactly one acmeIdentifier extension');
  if (!identifier.critical) throw fail('the acmeIdentifier extension must be critical');
  let digest: Buffer;
  try {
    digest = Buffer.from(AsnConvert.parse(identifier.value, OctetString).buffer);
  } catch {
    throw fail('the acmeIdentifier extension is not an OCTET STRING');
  }
  const expected = createHash('sha256').update(keyAuthorization).digest();
  if (digest.length !== expected.length || !timingSafeEqual(digest, expected))
    throw fail('the acmeIdentifier extension holds another key authorization');
  const unknown = parsed.extensions.filter((e) => e.critical && !UNDERSTOOD_CRITICAL.has(e.type));
  if (unknown.length > 0)
    throw fail(`the certificate has unknown critical extensions (${unknown.map((e) => e.type).join(', ')})`);
}

/** The certificate the server at `domain:port` shows once it has negotiated `acme-tls/1`. */
function handshake(domain: string, port: number, lookup?: LookupFunction): Promise<NodeCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: domain,
      port,
      servername: domain,
      ALPNProtocols: [ALPN_PROTOCOL],
      minVersion: 'TLSv1.2',
      // The certificate is self-signed by design; it is checked by hand below.
      rejectUnauthorized: false,
      ...(lookup ? { lookup } : {}),
    });
    const done = (err: AcmeProblem | undefined, cert?: NodeCertificate) => {
      socket.destroy();
      if (err) reject(err);
      else if (cert) resolve(cert);
    };
    socket.setTimeout(HANDSHAKE_TIMEOUT_MS, () =>
      done(new AcmeProblem('connection', `tls-alpn-01: the handshake with ${domain} timed out`, 400)),
    );
    socket.once('error', (err) =>
      done(new AcmeProblem('connection', `tls-alpn-01: failed to connect to ${domain}: ${err.message}`, 400)),
    );
    socket.once('secureConnect', () => {
      if (socket.alpnProtocol !== ALPN_PROTOCOL)
        return done(
          new AcmeProblem(
            'incorrectResponse',
            `tls-alpn-01: the server negotiated ${socket.alpnProtocol || 'no ALPN protocol'}`,
            400,
          ),
        );
      const peer = socket.getPeerCertificate(true);
      const issuer = peer.issuerCertificate;
      // RFC 8737 3: one self-signed certificate; a chain means something else answered.
      if (issuer && issuer.fingerprint256 !== peer.fingerprint256)
        return done(
          new AcmeProblem('incorrectResponse', 'tls-alpn-01: the server sent more than one certificate', 400),
        );
      const cert = socket.getPeerX509Certificate();
      if (!cert) return done(new AcmeProblem('incorrectResponse', 'tls-alpn-01: the server sent no certificate', 400));
      done(undefined, cert);
    });
  });
}
