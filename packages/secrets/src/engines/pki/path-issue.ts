import type { SecretType } from '../../framework/index.js';
import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';
import type { PkiDeps } from './backend.js';
import { issueCertificate, newRsaKey, showSerial } from './certificates.js';
import { checkedNames } from './names.js';
import { pkiStore } from './pki-store.js';

/** The lease type of certificates issued by roles with `generate_lease`: revoking the lease revokes the certificate. */
export function certificateSecretType(d: PkiDeps): SecretType {
  return {
    type: 'pki',
    revoke: async ({ storage, internal }) => {
      await revokeSerial(d, storage, String(internal.serial_number ?? ''));
    },
  };
}

/** Marks the stored certificate revoked (idempotent); answers its revocation time. */
export async function revokeSerial(d: PkiDeps, storage: Parameters<typeof pkiStore.cert>[0], serial: string) {
  return d.locks.run(`cert/${serial}`, async () => {
    const cert = await pkiStore.cert(storage, serial);
    if (!cert) return undefined;
    if (cert.revocation_time === 0) {
      cert.revocation_time = Math.floor(d.clock.now() / 1000);
      await pkiStore.putCert(storage, serial, cert);
    }
    return cert.revocation_time;
  });
}

/** The validity of a new certificate: asked, or the role's, or the mount's; never beyond max_ttl nor the CA. */
function ttlOf(d: PkiDeps, asked: number, role: { ttl: number; max_ttl: number }, caExpiration: number) {
  const max = role.max_ttl || d.maxTtlSeconds();
  const warnings: string[] = [];
  let ttl = asked || role.ttl || d.defaultTtlSeconds();
  if (ttl > max) {
    warnings.push(`TTL "${ttl}s" is longer than permitted maxTTL "${max}s", so maxTTL is being used`);
    ttl = max;
  }
  if (Math.floor(d.clock.now() / 1000) + ttl > caExpiration)
    throw new InvalidRequestError(
      'cannot satisfy request, as TTL would result in notAfter of the certificate beyond the expiration of the CA certificate',
    );
  return { ttl, warnings };
}

/** `issue/:role`: a new key and a certificate for it, signed by the mount's CA under the role's rules. */
export function pathIssue(d: PkiDeps) {
  return definePath({
    pattern: 'issue/:role',
    fields: {
      role: field.path({ description: 'The role to issue against.' }),
      common_name: field.string({ description: 'Common name of the certificate.', required: true }),
      alt_names: field.commaStrings({ description: 'More DNS names.', default: [] }),
      ip_sans: field.commaStrings({ description: 'IP addresses.', default: [] }),
      ttl: field.durationSeconds({ description: 'Validity; default the role’s ttl.', default: 0 }),
      format: field.enum({
        description: 'pem (the only format here).',
        values: ['pem'] as const,
        default: 'pem' as const,
      }),
    },
    operations: {
      update: {
        summary: 'Issue a certificate and its private key.',
        handler: async ({ storage, data }): Promise<LogicalResponse> => {
          const role = await pkiStore.role(storage, data.role);
          if (!role) throw new InvalidRequestError(`unknown role: ${data.role}`);
          const ca = await pkiStore.ca(storage);
          if (!ca) throw new InvalidRequestError('no CA on this mount: generate one at root/generate/internal');
          const names = checkedNames(role, data.common_name, data.alt_names, data.ip_sans);
          const { ttl, warnings } = ttlOf(d, data.ttl, role, ca.expiration);
          const key = await newRsaKey(role.key_bits);
          const now = d.clock.now();
          const { pem, serialHex } = issueCertificate(
            {
              publicKeyPem: key.publicKey,
              commonName: data.common_name,
              ...names,
              notBeforeMs: now - 30_000,
              notAfterMs: now + ttl * 1000,
              isCa: false,
              urls: await pkiStore.urls(storage),
            },
            d.random,
            { certificatePem: ca.certificate, privateKeyPem: ca.private_key },
          );
          if (!role.no_store) await pkiStore.putCert(storage, serialHex, { certificate: pem, revocation_time: 0 });
          const serial_number = showSerial(serialHex);
          const issued = {
            certificate: pem.trim(),
            issuing_ca: ca.certificate.trim(),
            ca_chain: [ca.certificate.trim()],
            private_key: key.privateKey.trim(),
            private_key_type: 'rsa',
            serial_number,
            expiration: Math.floor(now / 1000) + ttl,
          };
          const extra = warnings.length > 0 ? { warnings } : {};
          if (!role.generate_lease) return { data: issued, ...extra };
          return { secret: { type: 'pki', data: issued, internal: { serial_number }, ttlSeconds: ttl }, ...extra };
        },
      },
    },
    help: {
      synopsis: 'Issue a certificate.',
      description:
        'The private key is answered once and not kept. With the role’s generate_lease, the certificate comes under a lease.',
    },
  });
}
