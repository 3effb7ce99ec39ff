import { createHmac, timingSafeEqual } from 'node:crypto';
import { definePath, field, hashAlgorithmOf, nodeHashName, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { heldKeyOf } from './key-creation.js';
import { decryptionVersion, encryptionVersion, type HeldTransitKey, versionOf } from './key-store.js';
import {
  base64Field,
  formatVaultText,
  itemInt,
  itemString,
  parseVaultText,
  partialFailureField,
  runBatch,
} from './wire.js';

function hmacKeyOf(entry: HeldTransitKey, version: number): Buffer {
  const key = versionOf(entry, version).hmac_key;
  if (!key) throw new InvalidRequestError('HMAC key does not exist or cannot be found');
  return Buffer.from(key, 'base64');
}

function macOf(entry: HeldTransitKey, version: number, algorithm: string, input: Buffer): Buffer {
  return createHmac(nodeHashName(hashAlgorithmOf(algorithm)), hmacKeyOf(entry, version))
    .update(input)
    .digest();
}

/** The `vault:v<n>:<base64>` HMAC of `input` under the key's version (0: the latest). */
function hmacWith(entry: HeldTransitKey, input: string, keyVersion: number, algorithm: string) {
  const version = encryptionVersion(entry, keyVersion);
  const mac = macOf(entry, version, algorithm, base64Field(input, 'input'));
  return { hmac: formatVaultText(version, mac.toString('base64')) };
}

/** Whether `hmac` (`vault:v<n>:…`) is the HMAC of `input` under its version; used by `verify/:name`. */
export function verifyHmac(entry: HeldTransitKey, input: string, hmac: string, algorithm: string): boolean {
  const { version, payload } = parseVaultText(hmac, 'hmac');
  decryptionVersion(entry, version);
  const expected = macOf(entry, version, algorithm, base64Field(input, 'input'));
  const given = Buffer.from(payload, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `hmac/:name` and `hmac/:name/:urlalgorithm`: an HMAC of base64 input with the key's HMAC key. */
export function pathHmac(): PathDefinition[] {
  const fields = {
    name: field.path({ description: 'Name of the key.' }),
    input: field.string({ description: 'Base64 of the data (or batch_input).' }),
    key_version: field.int({ description: 'Version to use; 0 (default) is the latest.', default: 0 }),
    algorithm: field.string({ description: 'Hash algorithm (default sha2-256).' }),
    batch_input: field.objects({ description: 'Items of input and reference; answers batch_results.' }),
    partial_failure_response_code: partialFailureField,
  };
  const urlalgorithm = field.path({ description: 'Hash algorithm, in the URL instead of the body.' });
  return [
    { pattern: 'hmac/:name', fields },
    { pattern: 'hmac/:name/:urlalgorithm', fields: { ...fields, urlalgorithm } },
  ].map(({ pattern, fields }) =>
    definePath({
      pattern,
      fields,
      operations: {
        update: {
          summary: 'Generate an HMAC.',
          handler: async ({ storage, data }) => {
            const entry = await heldKeyOf(storage, data.name, 'HMAC key not found', 'look');
            const algorithm = (data as { urlalgorithm?: string }).urlalgorithm || data.algorithm || 'sha2-256';
            if (!data.batch_input) {
              if (data.input === undefined) throw new InvalidRequestError('missing input for HMAC');
              return { data: hmacWith(entry, data.input, data.key_version, algorithm) };
            }
            return runBatch(
              data.batch_input,
              async (item) =>
                hmacWith(entry, itemString(item, 'input'), itemInt(item, 'key_version') || data.key_version, algorithm),
              data.partial_failure_response_code,
            );
          },
        },
      },
      help: { synopsis: 'Generate an HMAC.', description: 'Answers `hmac` as vault:v<version>:<base64>.' },
    }),
  );
}
