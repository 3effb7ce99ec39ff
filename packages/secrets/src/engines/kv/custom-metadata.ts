import { InvalidRequestError, multiError } from '../../logical/errors.js';

const MAX_KEYS = 64;
const MAX_KEY_LENGTH = 128;
const MAX_VALUE_LENGTH = 512;
const PREFIX = 'custom_metadata validation failed';

/**
 * The limits established servers put on a secret's `custom_metadata`, reported all at
 * once in their multi-error form. Metadata is read on every data read, so it stays small.
 */
export function validateCustomMetadata(metadata: Record<string, string>): void {
  const entries = Object.entries(metadata);
  if (entries.length > MAX_KEYS) {
    throw new InvalidRequestError(
      multiError([`${PREFIX}: payload must contain at most ${MAX_KEYS} keys, provided ${entries.length}`]),
    );
  }
  const problems: string[] = [];
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      problems.push(
        `${PREFIX}: length of key ${JSON.stringify(key)} is ${key.length} but must be 0 < len(key) <= ${MAX_KEY_LENGTH}`,
      );
    }
    if (value.length === 0 || value.length > MAX_VALUE_LENGTH) {
      problems.push(
        `${PREFIX}: length of value for key ${JSON.stringify(key)} is ${value.length} but must be 0 < len(value) <= ${MAX_VALUE_LENGTH}`,
      );
    }
    if (!isPrintable(key))
      problems.push(`${PREFIX}: key ${JSON.stringify(key)} (${key}) contains unprintable characters`);
    if (!isPrintable(value))
      problems.push(`${PREFIX}: value for key ${JSON.stringify(key)} contains unprintable characters`);
  }
  if (problems.length > 0) throw new InvalidRequestError(multiError(problems));
}

function isPrintable(text: string): boolean {
  return !/[\p{Cc}\p{Cf}\p{Co}\p{Cn}]/u.test(text);
}
