import type { SealKeyAdmin } from '../core/system-core.js';
import { definePath, field, type PathDefinition } from '../framework/index.js';
import type { CancelGuard } from './ceremony-guard.js';
import { bare, keyFields, requireKey } from './path-rekey.js';

/** `sys/generate-root/*`: a new root token from a threshold of unseal shares. */
export function pathGenerateRoot(keys: SealKeyAdmin, guard: CancelGuard): PathDefinition[] {
  const { rootGeneration } = keys;
  return [
    definePath({
      pattern: 'generate-root/attempt',
      // A root generation's attempt, nonce and progress live only in the active server's memory.
      forwardToActive: true,
      fields: {
        otp: field.string({ description: 'One-time pad (28 characters) to encode the token with.' }),
        pgp_key: field.string({ description: 'Not supported: PGP-encrypt the token.' }),
      },
      operations: {
        read: {
          summary: 'Progress of the root token generation.',
          handler: async () => bare(await rootGeneration.status()),
        },
        update: {
          summary: 'Start a root token generation; without `otp`, one is generated and shown once.',
          handler: async ({ data }) =>
            bare(await rootGeneration.start({ otp: data.otp || undefined, pgpKey: data.pgp_key || undefined })),
        },
        delete: {
          summary: 'Cancel the generation; shares submitted so far are forgotten.',
          handler: async ({ req }) => {
            await guard(req, 'sys/generate-root/attempt', (await rootGeneration.status()).progress > 0);
            rootGeneration.cancel();
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Start, read or cancel a root token generation.',
        description: 'Holders of the unseal shares then submit them to `sys/generate-root/update`.',
      },
    }),
    definePath({
      pattern: 'generate-root/update',
      forwardToActive: true,
      fields: keyFields,
      operations: {
        update: {
          summary: 'Submit one share; the last one receives the encoded root token.',
          handler: async ({ data }) => bare(await rootGeneration.update(requireKey(data.key), data.nonce ?? '')),
        },
      },
      help: {
        synopsis: 'Submit a share toward a root token.',
        description: 'The token comes XORed with the attempt’s one-time pad, base64-encoded.',
      },
    }),
  ];
}
