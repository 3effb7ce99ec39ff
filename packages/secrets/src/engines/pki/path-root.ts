import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { PkiDeps } from './backend.js';
import { issueCertificate, newRsaKey, RSA_KEY_BITS, showSerial } from './certificates.js';
import { pkiStore } from './pki-store.js';

/** `root/generate/internal|exported`: a self-signed root CA (RSA); `exported` also answers its private key, once. */
export function pathGenerateRoot(d: PkiDeps) {
  return definePath({
    pattern: 'root/generate/:exported',
    fields: {
      exported: field.path({ description: '`internal` (the key never leaves) or `exported` (answered once).' }),
      common_name: field.string({ description: 'Common name of the CA.', required: true }),
      ttl: field.durationSeconds({ description: 'Validity; default: the mount’s max lease TTL.' }),
      key_type: field.enum({
        description: 'rsa (the only type here).',
        values: ['rsa'] as const,
        default: 'rsa' as const,
      }),
      key_bits: field.int({ description: '2048 (default), 3072 or 4096.', default: 2048 }),
    },
    operations: {
      update: {
        summary: 'Generate the root CA.',
        handler: async ({ storage, data }) =>
          d.locks.run('ca', async () => {
            if (data.exported !== 'internal' && data.exported !== 'exported')
              throw new InvalidRequestError('exported must be "internal" or "exported"');
            if (!(RSA_KEY_BITS as readonly number[]).includes(data.key_bits))
              throw new InvalidRequestError(`invalid key_bits ${data.key_bits}: 2048, 3072 or 4096`);
            if (await pkiStore.ca(storage))
              throw new InvalidRequestError('a root CA exists already: DELETE root first');
            const key = await newRsaKey(data.key_bits);
            const now = d.clock.now();
            const ttl = data.ttl || d.maxTtlSeconds();
            const { pem, serialHex } = issueCertificate(
              {
                publicKeyPem: key.publicKey,
                commonName: data.common_name,
                dnsNames: [],
                ipAddresses: [],
                notBeforeMs: now - 30_000,
                notAfterMs: now + ttl * 1000,
                isCa: true,
                urls: await pkiStore.urls(storage),
              },
              d.random,
              { selfKeyPem: key.privateKey },
            );
            const expiration = Math.floor(now / 1000) + ttl;
            const serial_number = showSerial(serialHex);
            await pkiStore.putCa(storage, { certificate: pem, private_key: key.privateKey, serial_number, expiration });
            await pkiStore.putCert(storage, serialHex, { certificate: pem, revocation_time: 0 });
            const shown = { certificate: pem.trim(), issuing_ca: pem.trim(), serial_number, expiration };
            return {
              data:
                data.exported === 'exported'
                  ? { ...shown, private_key: key.privateKey.trim(), private_key_type: 'rsa' }
                  : shown,
            };
          }),
      },
    },
    help: { synopsis: 'Generate a root CA.', description: 'One root per mount; DELETE root removes it.' },
  });
}

/** `root` (DELETE): removes the CA and its key; issued certificates stay readable. */
export function pathRoot(d: PkiDeps) {
  return definePath({
    pattern: 'root',
    fields: {},
    operations: {
      delete: {
        summary: 'Delete the root CA.',
        handler: async ({ storage }) =>
          d.locks.run('ca', async () => {
            await pkiStore.deleteCa(storage);
            return undefined;
          }),
      },
    },
    help: { synopsis: 'Delete the root CA.', description: 'Its key is gone for good; issue fails until a new root.' },
  });
}

/** `ca/pem`: the CA certificate as PEM, without a token, as established (204 before there is one). */
export function pathCaPem() {
  return definePath({
    pattern: 'ca/pem',
    fields: {},
    operations: {
      read: {
        summary: 'Read the CA certificate.',
        handler: async ({ storage }) => {
          const ca = await pkiStore.ca(storage);
          if (!ca) return undefined;
          return { raw: { status: 200, body: ca.certificate, contentType: 'application/pem-certificate-chain' } };
        },
      },
    },
    help: { synopsis: 'The CA certificate (PEM).', description: 'No token needed.' },
  });
}
