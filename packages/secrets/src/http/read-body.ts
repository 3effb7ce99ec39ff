import type { IncomingMessage, ServerResponse } from 'node:http';
import { type BodyErrors, readBody as readBodyWith, streamBody as streamBodyWith } from '@ward/base';
import { InternalError, InvalidRequestError, RequestTooLargeError } from '../logical/errors.js';
import { destroyAfterLinger } from './linger.js';

/** The secrets server's answers to a refused body: 413 `request_too_large`, 400, 500. */
const BODY_ERRORS: BodyErrors = {
  tooLarge: (limitBytes) => new RequestTooLargeError(limitBytes),
  incomplete: (cause) => new InvalidRequestError('request body incomplete: the connection closed', { cause }),
  alreadyRead: () => new InternalError('request body already read'),
};

/**
 * Reads the whole request body, refusing more than `limitBytes` (negative: no limit; pass the
 * listener's `maxRequestSize`), as base's `readBody` with the server's errors: a
 * RequestTooLargeError (code `request_too_large`, 413) for a body over the limit, an
 * InvalidRequestError if the connection closes before the body ends.
 *
 * Either way answer the request through `closeAfterResponse`, so the client is not made to send
 * the rest of the body before its connection can be reused.
 */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return readBodyWith(req, limitBytes, BODY_ERRORS);
}

/** As `readBody`, but hands each chunk to `consume` as it arrives (see base's `streamBody`). */
export function streamBody(
  req: IncomingMessage,
  limitBytes: number,
  consume: (chunk: Buffer) => void | Promise<void>,
): Promise<number> {
  return streamBodyWith(req, limitBytes, BODY_ERRORS, consume);
}

/**
 * Prepares `res` to answer a request whose body will not be read to its end, such as a 413 after
 * readBody threw RequestTooLargeError. Call it before writing the response.
 *
 * Keeping the connection alive would mean reading the whole oversized body first, to find where the
 * next request starts. Instead the response says `Connection: close` (so Node ends the connection
 * after it), the rest of the body is discarded unread, and the connection is destroyed a moment
 * after the response if the client has not closed it by then (see destroyAfterLinger).
 */
export function closeAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  res.shouldKeepAlive = false;
  req.resume();
  res.once('finish', () => destroyAfterLinger(req.socket));
}
