import type { IncomingMessage } from 'node:http';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../jsonapi/errors.js';

/** Larger than any document this API accepts, small enough that a client cannot exhaust memory. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The raw request body, refusing anything over `MAX_BODY_BYTES`. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES)
    throw new PayloadTooLargeError(`request bodies are limited to ${MAX_BODY_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new PayloadTooLargeError(`request bodies are limited to ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

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
