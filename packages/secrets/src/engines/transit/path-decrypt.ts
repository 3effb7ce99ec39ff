import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { decryptWith, encryptWith } from './crypt.js';
import type { TransitDeps } from './deps.js';
import { heldKeyOf } from './key-creation.js';
import type { HeldTransitKey } from './key-store.js';
import { itemInt, itemString, optionalBase64, partialFailureField, runBatch } from './wire.js';

const name = field.path({ description: 'Name of the key.' });
const ciphertext = field.string({ description: 'vault:v<version>:<base64> from encrypt (or batch_input).' });
const context = field.string({ description: 'Base64 derivation context (derived keys).' });
const nonce = field.string({ description: 'Not used: the nonce is in the ciphertext.' });
const batchInput = field.objects({ description: 'Items of ciphertext, context, … and reference.' });

interface DecryptItem {
  ciphertext?: string;
  context?: string;
  associated_data?: string;
}

function decryptOne(entry: HeldTransitKey, item: DecryptItem) {
  if (!item.ciphertext) throw new InvalidRequestError('missing ciphertext to decrypt');
  return decryptWith(entry, item.ciphertext, {
    context: optionalBase64(item.context, 'context'),
    aad: optionalBase64(item.associated_data, 'associated_data'),
  });
}

const itemOf = (item: Record<string, unknown>): DecryptItem => ({
  ciphertext: itemString(item, 'ciphertext'),
  context: itemString(item, 'context'),
  associated_data: itemString(item, 'associated_data'),
});

/** `decrypt/:name`: open a ciphertext of any version from min_decryption_version on; answers base64 plaintext. */
export function pathDecrypt() {
  return definePath({
    pattern: 'decrypt/:name',
    fields: {
      name,
      ciphertext,
      context,
      nonce,
      associated_data: field.string({ description: 'Base64 associated data given to encrypt.' }),
      batch_input: batchInput,
      partial_failure_response_code: partialFailureField,
    },
    operations: {
      update: {
        summary: 'Decrypt data.',
        handler: async ({ storage, data }) => {
          const entry = await heldKeyOf(storage, data.name, 'encryption key not found', 'look');
          if (!data.batch_input) return { data: { plaintext: decryptOne(entry, data).plaintext.toString('base64') } };
          return runBatch(
            data.batch_input,
            async (item) => ({ plaintext: decryptOne(entry, itemOf(item)).plaintext.toString('base64') }),
            data.partial_failure_response_code,
          );
        },
      },
    },
    help: { synopsis: 'Decrypt data.', description: 'Answers `plaintext`, base64 as it was given to encrypt.' },
  });
}

/** `rewrap/:name`: a ciphertext of an older version sealed again with the latest (or `key_version`), never shown. */
export function pathRewrap(d: TransitDeps) {
  const rewrapOne = (entry: HeldTransitKey, item: DecryptItem, keyVersion: number) => {
    const { plaintext } = decryptOne(entry, item);
    return encryptWith(entry, { plaintext, context: optionalBase64(item.context, 'context'), keyVersion }, d.random);
  };
  return definePath({
    pattern: 'rewrap/:name',
    fields: {
      name,
      ciphertext,
      context,
      nonce,
      key_version: field.int({ description: 'Version to seal with; 0 (default) is the latest.', default: 0 }),
      batch_input: batchInput,
      partial_failure_response_code: partialFailureField,
    },
    operations: {
      update: {
        summary: 'Rewrap data.',
        handler: async ({ storage, data }) => {
          const entry = await heldKeyOf(storage, data.name, 'encryption key not found', 'look');
          if (!data.batch_input) return { data: rewrapOne(entry, data, data.key_version) };
          return runBatch(
            data.batch_input,
            async (item) => rewrapOne(entry, itemOf(item), itemInt(item, 'key_version') || data.key_version),
            data.partial_failure_response_code,
          );
        },
      },
    },
    help: { synopsis: 'Rewrap ciphertext.', description: 'Answers the new `ciphertext` and its `key_version`.' },
  });
}
