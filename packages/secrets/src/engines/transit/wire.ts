import { field } from '../../framework/index.js';
import { InvalidRequestError, LogicalError } from '../../logical/errors.js';
import type { LogicalResponse } from '../../logical/response.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** `vault:v<version>:<payload>`, the established form of ciphertexts, signatures and HMACs. */
const VAULT_TEXT = /^vault:v([1-9][0-9]{0,8}):(.*)$/s;

/** The bytes of a base64 field; `what` names it in the 400 as established (`plaintext`, `context`, …). */
export function base64Field(text: string, what: string): Buffer {
  if (!BASE64.test(text)) throw new InvalidRequestError(`failed to base64-decode ${what}`);
  return Buffer.from(text, 'base64');
}

/** An optional base64 field (`context`, `associated_data`): absent or empty gives `undefined`. */
export function optionalBase64(text: string | undefined, what: string): Buffer | undefined {
  return text ? base64Field(text, what) : undefined;
}

export function formatVaultText(version: number, payload: string): string {
  return `vault:v${version}:${payload}`;
}

/** The version and payload of a `vault:v<n>:` text; 400 for anything else. */
export function parseVaultText(text: string, what = 'ciphertext'): { version: number; payload: string } {
  if (!text.startsWith('vault:')) throw new InvalidRequestError(`invalid ${what}: no prefix`);
  const match = VAULT_TEXT.exec(text);
  if (!match) throw new InvalidRequestError(`invalid ${what}: wrong number of fields`);
  return { version: Number(match[1]), payload: match[2] ?? '' };
}

/** The payload of a `vault:v<n>:` ciphertext as bytes. */
export function payloadBytes(payload: string): Buffer {
  if (!BASE64.test(payload)) throw new InvalidRequestError('invalid ciphertext: could not decode base64');
  return Buffer.from(payload, 'base64');
}

/** The status a batch answers when some items failed and others did not (established; default 400). */
export const partialFailureField = field.int({
  description: 'Status to answer when some batch items fail and others succeed (default 400; all failing: 400).',
});

const HTTP_STATUS_MIN = 1;
const HTTP_STATUS_MAX = 599;

/**
 * Runs `one` on each item of a `batch_input`, as established: each result keeps the item's
 * `reference`; an item that fails with a caller's error gets `{ error }` instead, and the answer
 * is then 400 with every result in it, or `partialFailureCode` when other items succeeded (a code
 * outside 1..599 is ignored with a warning). Any other error fails the whole request.
 */
export async function runBatch(
  items: unknown[],
  one: (item: Record<string, unknown>) => Promise<Record<string, unknown>>,
  partialFailureCode?: number,
): Promise<LogicalResponse> {
  let failed = 0;
  const results: Record<string, unknown>[] = [];
  for (const raw of items) {
    const item = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const reference = typeof item.reference === 'string' ? item.reference : '';
    try {
      results.push({ ...(await one(item)), reference });
    } catch (err) {
      if (!(err instanceof LogicalError) || err.code !== 'invalid_request') throw err;
      failed += 1;
      results.push({ error: err.message, reference });
    }
  }
  const response: LogicalResponse = { data: { batch_results: results } };
  if (failed === 0) return response;
  response.status = 400;
  if (partialFailureCode !== undefined && failed < results.length) {
    if (partialFailureCode >= HTTP_STATUS_MIN && partialFailureCode <= HTTP_STATUS_MAX)
      response.status = partialFailureCode;
    else
      response.warnings = [
        `invalid HTTP response code override from partial_failure_response_code, reverting to ${response.status}`,
      ];
  }
  return response;
}

/** A batch item's string field ('' when absent; 400 when not a string). */
export function itemString(item: Record<string, unknown>, name: string): string {
  const value = item[name];
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new InvalidRequestError(`invalid value for "${name}" in batch_input: expected a string`);
}

/** A batch item's integer field (0 when absent). */
export function itemInt(item: Record<string, unknown>, name: string): number {
  const value = item[name];
  if (value === undefined || value === null || value === '') return 0;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new InvalidRequestError(`invalid value for "${name}" in batch_input: expected an integer`);
  return n;
}

/**
 * A refusal the established server answers with 500 and its text (hvac's tests match on both):
 * backing up a key without `allow_plaintext_backup`, restoring over an existing key.
 */
export function establishedServerError(message: string): LogicalResponse {
  return { raw: { status: 500, body: { errors: [message] } } };
}
