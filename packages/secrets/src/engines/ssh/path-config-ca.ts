import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { generateKeys, importKeys, keyKind } from './ca-keys.js';
import { caStore } from './stores.js';

/** `config/ca`: the mount's CA key pair, generated here or imported. */
export function pathConfigCa(): PathDefinition {
  return definePath({
    pattern: 'config/ca',
    fields: {
      private_key: field.string({ description: 'Private key of the CA to import (PEM or OpenSSH).', default: '' }),
      public_key: field.string({ description: 'Its public key (checked against the private key).', default: '' }),
      generate_signing_key: field.bool({ description: 'Generate a key pair when none is given.', default: true }),
      key_type: field.string({
        description: '`ssh-rsa` (default), `ec`/`ecdsa-sha2-nistp256`, `ssh-ed25519`.',
        default: 'ssh-rsa',
      }),
      key_bits: field.int({ description: 'RSA: 2048, 3072, 4096 (default), 8192; EC: 256, 384, 521.', default: 0 }),
    },
    operations: {
      read: {
        summary: "Read the CA's public key.",
        handler: async ({ storage }) => {
          const keys = await caStore.get(storage);
          if (!keys) throw new InvalidRequestError("keys haven't been configured yet");
          return { data: { public_key: keys.public_key } };
        },
      },
      update: {
        summary: 'Import or generate the CA key pair.',
        handler: async ({ storage, data }) => {
          if (await caStore.get(storage)) {
            throw new InvalidRequestError('keys are already configured; delete them before reconfiguring');
          }
          if (data.private_key) {
            await caStore.put(storage, importKeys(data.private_key, data.public_key));
            return undefined;
          }
          if (data.public_key) throw new InvalidRequestError('missing private_key');
          if (!data.generate_signing_key)
            throw new InvalidRequestError('missing public_key and private_key, and generate_signing_key is false');
          const pair = await generateKeys(keyKind(data.key_type), data.key_bits);
          await caStore.put(storage, { public_key: pair.publicKey, private_key: pair.privateKey });
          return { data: { public_key: pair.publicKey } };
        },
      },
      delete: {
        summary: 'Delete the CA key pair.',
        handler: async ({ storage }) => {
          await caStore.delete(storage);
          return undefined;
        },
      },
    },
    help: { synopsis: 'Configure the SSH CA.', description: 'The private key is never returned.' },
  });
}

/** `public_key`: the CA's public key as text, without a token (for `TrustedUserCAKeys`). */
export function pathPublicKey(): PathDefinition {
  return definePath({
    pattern: 'public_key',
    fields: {},
    operations: {
      read: {
        summary: "The CA's public key (OpenSSH format).",
        handler: async ({ storage }) => {
          const keys = await caStore.get(storage);
          if (!keys) throw new NotFoundError('');
          return { raw: { status: 200, body: `${keys.public_key}\n`, contentType: 'text/plain' } };
        },
      },
    },
    help: { synopsis: "Read the CA's public key.", description: 'Unauthenticated.' },
  });
}
