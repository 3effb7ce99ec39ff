import type { IncomingMessage } from 'node:http';
import { type BodyErrors, readBody as readBodyWith } from '@ward/base';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../jsonapi/errors.js';

/** Larger than any document this API accepts, small enough that a client cannot exhaust memory. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The raw request body, refusing anything over `MAX_BODY_BYTES`. */
export async function readBody(req: IncomingMessage): Promise<string> {
  return (await readBodyWith(req, MAX_BODY_BYTES, BODY_ERRORS)).toString('utf8');
}

const BODY_ERRORS: BodyErrors = {
  tooLarge: (limitBytes) => new PayloadTooLargeError(`request bodies are limited to ${limitBytes} bytes`),
  incomplete: (cause) => new InvalidRequestError('the request body is incomplete: the connection closed', { cause }),
};

/** A JSON:API request document, or undefined when the body is empty. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === '') return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/vnd.api+json' && type !== 'application/json') {
    throw new UnsupportedMediaTypeError('send request documents as application/vnd.api+json');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidRequestError('the request body is not valid JSON');
  }
}
