import type { Clock, Random } from '@ward/base';
import sshpk from 'sshpk';
import { definePath, field, type PathDefinition, type SystemView } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { Storage } from '../../logical/storage.js';
import { generateKeys, keyKind } from './ca-keys.js';
import {
  type CertificateAsk,
  certTypeOf,
  checkKeyLength,
  criticalOptionsOf,
  extensionsOf,
  keyIdOf,
  principalsOf,
  ttlOf,
} from './certificate-request.js';
import { parsePublicKey, signCertificate } from './certificates.js';
import { requireRole } from './path-roles.js';
import { caStore } from './stores.js';

export interface SignDeps {
  clock: Clock;
  random: Random;
  system: SystemView;
}

const askFields = {
  ttl: field.durationSeconds({ description: 'Certificate TTL.', default: 0 }),
  valid_principals: field.string({ description: 'Comma-separated principals (users, or hosts).', default: '' }),
  cert_type: field.string({ description: '`user` (default) or `host`.', default: 'user' }),
  key_id: field.string({ description: 'Key ID (when the role allows callers to choose it).', default: '' }),
  critical_options: field.object({
    description: 'Critical options (`force-command`, `source-address`, …).',
    default: {},
  }),
  extensions: field.object({ description: 'Extensions (`permit-pty`, …).', default: {} }),
};

/** Signs `key` under role `roleName` as asked; resolves with the answer's `serial_number` and `signed_key`. */
async function signUnderRole(
  d: SignDeps,
  storage: Storage,
  o: { roleName: string; key: sshpk.Key; ask: CertificateAsk; displayName: string },
): Promise<{ serial_number: string; signed_key: string }> {
  const role = await requireRole(storage, o.roleName);
  if (role.key_type !== 'ca') throw new InvalidRequestError('role is not a CA role (key_type "ca")');
  const ca = await caStore.get(storage);
  if (!ca) throw new InvalidRequestError("keys haven't been configured yet");
  checkKeyLength(role, o.key);
  const type = certTypeOf(role, o.ask.cert_type);
  const nowSeconds = Math.floor(d.clock.now() / 1000);
  const serial = Buffer.from(d.random.bytes(8));
  const signedKey = await signCertificate(
    {
      publicKey: o.key,
      type,
      keyId: keyIdOf(role, { asked: o.ask.key_id, roleName: o.roleName, displayName: o.displayName, key: o.key }),
      principals: principalsOf(role, type, o.ask.valid_principals),
      validAfter: nowSeconds - role.not_before_duration,
      validBefore: nowSeconds + ttlOf(role, o.ask.ttl, d.system),
      serial,
      criticalOptions: criticalOptionsOf(role, o.ask.critical_options),
      extensions: extensionsOf(role, o.ask.extensions),
      nonce: Buffer.from(d.random.bytes(32)),
    },
    ca.private_key,
    role.algorithm_signer,
  );
  return { serial_number: BigInt(`0x${serial.toString('hex')}`).toString(16), signed_key: signedKey };
}

/** `sign/:role`: an OpenSSH certificate for the caller's public key. */
export function pathSign(d: SignDeps): PathDefinition {
  return definePath({
    pattern: 'sign/:role',
    fields: {
      role: field.path({ description: 'Name of the CA role.' }),
      public_key: field.string({ description: 'The SSH public key to sign.', required: true }),
      ...askFields,
    },
    operations: {
      update: {
        summary: 'Sign an SSH public key.',
        handler: async ({ storage, data, req }) => ({
          data: await signUnderRole(d, storage, {
            roleName: data.role,
            key: parsePublicKey(data.public_key),
            ask: data,
            displayName: req.caller?.displayName ?? '',
          }),
        }),
      },
    },
    help: { synopsis: 'Sign an SSH public key.', description: 'Within what the role allows.' },
  });
}

/** `issue/:role`: a new key pair and its certificate; the private key is answered once and not kept. */
export function pathIssue(d: SignDeps): PathDefinition {
  return definePath({
    pattern: 'issue/:role',
    fields: {
      role: field.path({ description: 'Name of the CA role.' }),
      key_type: field.string({ description: '`rsa` (default), `ec`, `ed25519`.', default: 'rsa' }),
      key_bits: field.int({ description: 'RSA: 2048 to 8192 (default 4096); EC: 256, 384, 521.', default: 0 }),
      ...askFields,
    },
    operations: {
      update: {
        summary: 'Generate a key pair and sign it.',
        handler: async ({ storage, data, req }) => {
          const kind = keyKind(data.key_type);
          const pair = await generateKeys(kind, data.key_bits);
          const signed = await signUnderRole(d, storage, {
            roleName: data.role,
            key: sshpk.parseKey(pair.publicKey, 'ssh'),
            ask: data,
            displayName: req.caller?.displayName ?? '',
          });
          return { data: { ...signed, private_key: pair.privateKey, private_key_type: kind } };
        },
      },
    },
    help: { synopsis: 'Issue an SSH key pair and certificate.', description: 'The private key is not stored.' },
  });
}
