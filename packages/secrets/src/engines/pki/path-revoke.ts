import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import type { PkiDeps } from './deps.js';
import { allIssuers } from './issuers.js';
import { parsePrivateKey, spkiOf } from './keys.js';
import { pkiStore, serialKey } from './pki-store.js';
import { revokeSerial } from './revocation.js';
import { crypto, parseCertificates, showSerial, x509 } from './x509.js';

const SERIAL = /^[0-9a-f]{1,2}(?:[:-]?[0-9a-f]{2})*$/i;

export function serialOf(text: string): string {
  if (!SERIAL.test(text)) throw new InvalidRequestError(`invalid serial number ${JSON.stringify(text)}`);
  return showSerial(serialKey(text));
}

/** The serial a revoke names (`serial_number`, or the `certificate` itself: then stored if it was not, as established). */
async function targetOf(storage: Storage, data: { serial_number?: string; certificate?: string }) {
  if (data.serial_number && data.certificate)
    throw new InvalidRequestError('must provide either the certificate or the serial to revoke; not both');
  if (data.serial_number) return { serial: serialOf(data.serial_number), cert: undefined };
  const [cert] = parseCertificates(data.certificate ?? '');
  if (!cert) throw new InvalidRequestError('the serial number or certificate to revoke must be provided');
  const serial = showSerial(cert.serialNumber);
  if (!(await pkiStore.cert(storage, serial))) {
    let issuerId = '';
    for (const issuer of await allIssuers(storage)) {
      const parent = new x509.X509Certificate(issuer.certificate);
      if (
        cert.issuer === parent.subject &&
        (await cert.verify({ publicKey: await parent.publicKey.export(crypto), signatureOnly: true }, crypto))
      )
        issuerId = issuer.issuer_id;
    }
    if (!issuerId) throw new InvalidRequestError('unable to verify that the certificate was issued by this mount');
    await pkiStore.putCert(storage, serial, {
      certificate: cert.toString('pem'),
      revocation_time: 0,
      issuer_id: issuerId,
      expiration: Math.floor(cert.notAfter.getTime() / 1000),
    });
  }
  return { serial, cert };
}

async function revoke(d: PkiDeps, storage: Storage, serial: string) {
  if ((await allIssuers(storage)).some((i) => i.serial_number === serial))
    throw new InvalidRequestError(
      'adding issuer to its own CRL is not allowed; revoke the issuer at issuer/:ref/revoke',
    );
  const time = await revokeSerial(d, storage, serial);
  if (time === undefined) throw new InvalidRequestError(`certificate with serial ${serial} not found`);
  return {
    data: { revocation_time: time, revocation_time_rfc3339: new Date(time * 1000).toISOString(), state: 'revoked' },
  };
}

/** `revoke`, `revoke-with-key`, LIST `certs` and `certs/revoked`. */
export function pathRevoke(d: PkiDeps): PathDefinition[] {
  const target = {
    serial_number: field.string({ description: 'Serial number of the certificate.' }),
    certificate: field.string({ description: 'The certificate itself (PEM), instead of its serial.' }),
  };
  return [
    definePath({
      pattern: 'revoke',
      fields: target,
      operations: {
        update: {
          summary: 'Revoke a certificate.',
          handler: async ({ storage, data }) => revoke(d, storage, (await targetOf(storage, data)).serial),
        },
      },
      help: { synopsis: 'Revoke a certificate.', description: 'It appears on the CRL and in OCSP answers.' },
    }),
    definePath({
      pattern: 'revoke-with-key',
      fields: {
        ...target,
        private_key: field.string({ description: 'The certificate’s private key (PEM).', required: true }),
      },
      operations: {
        update: {
          summary: 'Revoke a certificate, proving possession of its key (no other permission needed).',
          handler: async ({ storage, data }) => {
            const { serial } = await targetOf(storage, data);
            const stored = await pkiStore.cert(storage, serial);
            const [cert] = parseCertificates(stored?.certificate ?? '');
            if (!cert) throw new InvalidRequestError(`certificate with serial ${serial} not found`);
            if (!spkiOf(parsePrivateKey(data.private_key)).equals(Buffer.from(cert.publicKey.rawData)))
              throw new InvalidRequestError('failed to validate private key match');
            return revoke(d, storage, serial);
          },
        },
      },
      help: { synopsis: 'Revoke with the private key.', description: 'The key must be the certificate’s.' },
    }),
    definePath({
      pattern: 'certs/',
      fields: {},
      operations: {
        list: {
          summary: 'List the serial numbers of stored certificates.',
          handler: async ({ storage }) => ({ data: { keys: (await pkiStore.certs(storage)).map(showSerial) } }),
        },
      },
      help: { synopsis: 'List certificates.', description: 'Colon-separated serial numbers.' },
    }),
    definePath({
      pattern: 'certs/revoked/',
      fields: {},
      operations: {
        list: {
          summary: 'List the serial numbers of revoked certificates.',
          handler: async ({ storage }) => ({ data: { keys: (await pkiStore.revoked(storage)).map(showSerial) } }),
        },
      },
      help: { synopsis: 'List revoked certificates.', description: 'Colon-separated serial numbers.' },
    }),
  ];
}
