import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError, UnsupportedPathError } from '../../logical/errors.js';
import { encryptWith } from './crypt.js';
import type { TransitDeps } from './deps.js';
import { heldKeyOf } from './key-creation.js';
import { optionalBase64 } from './wire.js';

const BITS = new Set([128, 256, 512]);

/** `datakey/plaintext/:name` and `datakey/wrapped/:name`: a fresh key for the caller, sealed by the named key. */
export function pathDatakey(d: TransitDeps) {
  return definePath({
    pattern: 'datakey/:plaintext/:name',
    fields: {
      plaintext: field.path({ description: '"plaintext" answers the data key too; "wrapped" only its ciphertext.' }),
      name: field.path({ description: 'Name of the key that seals the data key.' }),
      context: field.string({ description: 'Base64 derivation context (derived keys).' }),
      nonce: field.string({ description: 'Refused: every key here makes its own nonces.' }),
      bits: field.int({ description: 'Data key bits: 128, 256 (default) or 512.', default: 256 }),
      key_version: field.int({ description: 'Version to seal with; 0 (default) is the latest.', default: 0 }),
    },
    operations: {
      update: {
        summary: 'Generate a data key.',
        handler: async ({ storage, data }) => {
          if (data.plaintext !== 'plaintext' && data.plaintext !== 'wrapped') throw new UnsupportedPathError();
          if (!BITS.has(data.bits)) throw new InvalidRequestError('invalid bit length');
          const entry = await heldKeyOf(storage, data.name, 'encryption key not found', 'look');
          const dataKey = Buffer.from(d.random.bytes(data.bits / 8));
          const sealed = encryptWith(
            entry,
            {
              plaintext: dataKey,
              context: optionalBase64(data.context, 'context'),
              nonce: optionalBase64(data.nonce, 'nonce'),
              keyVersion: data.key_version,
            },
            d.random,
          );
          return {
            data: data.plaintext === 'plaintext' ? { ...sealed, plaintext: dataKey.toString('base64') } : sealed,
          };
        },
      },
    },
    help: {
      synopsis: 'Generate a data key.',
      description: 'Answers `ciphertext` and `key_version`, and with the plaintext form the key as base64 `plaintext`.',
    },
  });
}
