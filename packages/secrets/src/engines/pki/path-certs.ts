import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import type { PkiDeps } from './backend.js';
import { showSerial } from './certificates.js';
import { revokeSerial } from './path-issue.js';
import { pkiStore } from './pki-store.js';

const SERIAL = /^[0-9a-f]{2}(?:[:-]?[0-9a-f]{2})*$/i;

function serialOf(text: string): string {
  if (!SERIAL.test(text)) throw new InvalidRequestError(`invalid serial number ${JSON.stringify(text)}`);
  return text.replaceAll('-', ':');
}

/** `certs` (LIST), `cert/:serial` (read, no token needed) and `revoke`. */
export function pathCerts(d: PkiDeps): PathDefinition[] {
  return [
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
      pattern: 'cert/:serial',
      fields: { serial: field.path({ description: 'Serial number (colons or hyphens).', caseInsensitive: true }) },
      operations: {
        read: {
          summary: 'Read a certificate and whether it is revoked.',
          handler: async ({ storage, data }) => {
            const cert = await pkiStore.cert(storage, serialOf(data.serial));
            if (!cert) throw new NotFoundError('');
            return { data: { certificate: cert.certificate.trim(), revocation_time: cert.revocation_time } };
          },
        },
      },
      help: { synopsis: 'Read a certificate.', description: 'revocation_time is 0 until revoked.' },
    }),
    definePath({
      pattern: 'revoke',
      fields: { serial_number: field.string({ description: 'Serial number of the certificate.', required: true }) },
      operations: {
        update: {
          summary: 'Revoke a certificate.',
          handler: async ({ storage, data }) => {
            const serial = serialOf(data.serial_number);
            const ca = await pkiStore.ca(storage);
            if (ca && ca.serial_number === serial) throw new InvalidRequestError('adding CA to CRL is not allowed');
            const time = await revokeSerial(d, storage, serial);
            if (time === undefined) throw new InvalidRequestError(`certificate with serial ${serial} not found`);
            return { data: { revocation_time: time } };
          },
        },
      },
      help: {
        synopsis: 'Revoke a certificate.',
        description: 'Recorded here (cert/:serial shows revocation_time); Ward publishes no CRL or OCSP.',
      },
    }),
  ];
}
