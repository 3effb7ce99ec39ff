import type { Clock, Random } from '@ward/base';
import sshpk from 'sshpk';
import { definePath, field, type PathDefinition, type SystemView } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import type { EntityFacts } from '../../logical/identity-template.js';
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

const EXTENSIONS_SKIPPED =
  'default_extension templating enabled with at least one extension requiring identity templating. However, this request lacked identity entity information, causing one or more extensions to be skipped from the generated certificate.';

/** Who asks: the token's display name (for key IDs) and entity (for the role's templates). */
interface Asker {
  displayName: string;
  entity: EntityFacts | undefined;
}

const askerOf = (caller: { displayName: string; entity?: EntityFacts } | undefined): Asker => ({
  displayName: caller?.displayName ?? '',
  entity: caller?.entity,
});

/**
 * Signs `key` under role `roleName` as asked; resolves with the answer's `serial_number` and
 * `signed_key`, and the warnings to give.
 */
async function signUnderRole(
  d: SignDeps,
  storage: Storage,
  o: { roleName: string; key: sshpk.Key; ask: CertificateAsk; asker: Asker },
): Promise<{ data: { serial_number: string; signed_key: string }; warnings: string[] }> {
  const role = await requireRole(storage, o.roleName);
  if (role.key_type !== 'ca') throw new InvalidRequestError('role is not a CA role (key_type "ca")');
  const ca = await caStore.get(storage);
  if (!ca) throw new InvalidRequestError("keys haven't been configured yet");
  checkKeyLength(role, o.key);
  const type = certTypeOf(role, o.ask.cert_type);
  const nowSeconds = Math.floor(d.clock.now() / 1000);
  const serial = Buffer.from(d.random.bytes(8));
  const { entity, displayName } = o.asker;
  const extensions = extensionsOf(role, o.ask.extensions, entity);
  const signedKey = await signCertificate(
    {
      publicKey: o.key,
      type,
      keyId: keyIdOf(role, { asked: o.ask.key_id, roleName: o.roleName, displayName, key: o.key }),
      principals: principalsOf(role, type, o.ask.valid_principals, entity),
      validAfter: nowSeconds - role.not_before_duration,
      validBefore: nowSeconds + ttlOf(role, o.ask.ttl, d.system),
      serial,
      criticalOptions: criticalOptionsOf(role, o.ask.critical_options),
      extensions: extensions.extensions,
      nonce: Buffer.from(d.random.bytes(32)),
    },
    ca.private_key,
    role.algorithm_signer,
  );
  return {
    data: { serial_number: BigInt(`0x${serial.toString('hex')}`).toString(16), signed_key: signedKey },
    warnings: extensions.isMissingEntity ? [EXTENSIONS_SKIPPED] : [],
  };
}

/** The response: warnings only when there are some. */
const answer = <T>(r: { data: T; warnings: string[] }) => (r.warnings.length > 0 ? r : { data: r.data });

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
        handler: async ({ storage, data, req }) =>
          answer(
            await signUnderRole(d, storage, {
              roleName: data.role,
              key: parsePublicKey(data.public_key),
              ask: data,
              asker: askerOf(req.caller),
            }),
          ),
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
            asker: askerOf(req.caller),
          });
          return answer({
            data: { ...signed.data, private_key: pair.privateKey, private_key_type: kind },
            warnings: signed.warnings,
          });
        },
      },
    },
    help: { synopsis: 'Issue an SSH key pair and certificate.', description: 'The private key is not stored.' },
  });
}
