import { X509Crl } from '@peculiar/x509';
import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { certStore } from './cert-store.js';
import { decimalSerial } from './pem.js';

/** `crls/:name` and LIST `crls`: revoked serials no login may present, in the client's chain or as its certificate. */
export function pathCrls(): PathDefinition[] {
  return [
    definePath({
      pattern: 'crls/',
      fields: {},
      operations: {
        list: {
          summary: 'List the CRLs.',
          handler: async ({ storage }) => ({ data: { keys: await certStore.crls(storage) } }),
        },
      },
      help: { synopsis: 'List the CRLs.', description: '404 when there are none.' },
    }),
    definePath({
      pattern: 'crls/:name',
      fields: {
        name: field.path({ description: 'Name of the CRL (case-insensitive).', caseInsensitive: true }),
        crl: field.string({ description: 'The CRL, PEM or DER (base64).' }),
      },
      operations: {
        update: {
          summary: 'Add or replace a CRL.',
          handler: async ({ storage, data }) => {
            if (!data.crl) throw new InvalidRequestError('parameter must be set: crl');
            let crl: X509Crl;
            try {
              crl = new X509Crl(data.crl);
            } catch (err) {
              throw new InvalidRequestError(`failed to parse CRL: ${(err as Error).message}`);
            }
            await certStore.putCrl(storage, data.name, {
              serials: crl.entries.map((e) => decimalSerial(e.serialNumber)),
            });
            return undefined;
          },
        },
        read: {
          summary: 'Read the revoked serials of a CRL.',
          handler: async ({ storage, data }) => {
            const crl = await certStore.crl(storage, data.name);
            if (!crl) throw new NotFoundError('');
            return { data: { serials: Object.fromEntries(crl.serials.map((s) => [s, {}])) } };
          },
        },
        delete: {
          summary: 'Delete a CRL.',
          handler: async ({ storage, data }) => {
            await certStore.deleteCrl(storage, data.name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage a CRL.',
        description: 'A login whose certificate, or any certificate of its chain, has a serial in a CRL is refused.',
      },
    }),
  ];
}
