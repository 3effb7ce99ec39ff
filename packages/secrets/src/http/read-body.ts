import type { IncomingMessage, ServerResponse } from 'node:http';
import { InternalError, InvalidRequestError, RequestTooLargeError } from '../logical/errors.js';
import { destroyAfterLinger } from './linger.js';

/**
 * Reads the whole request body, refusing more than `limitBytes` (negative: no limit; pass the
 * listener's `maxRequestSize`).
 *
 * Rejects with InvalidRequestError if the connection closes before the body ends. Rejects with
 * RequestTooLargeError (code `request_too_large`, 413):
 * - at once, before reading a byte, when `Content-Length` says the body is over the limit;
 * - for a chunked body, as soon as the bytes received pass the limit. What was read is dropped,
 *   and the rest of the body is discarded as it arrives, never buffered.
 *
 * Either way answer the request through `closeAfterResponse`, so the client is not made to send
 * the rest of the body before its connection can be reused.
 */
export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const received = await streamBody(req, limitBytes, (chunk) => {
    chunks.push(chunk);
  });
  return Buffer.concat(chunks, received);
}

/**
 * As `readBody`, but hands each chunk to `consume` as it arrives instead of keeping it, and
 * reads no more until `consume` has settled; a rejection of `consume` stops the reading and
 * rejects. Resolves with the number of bytes received.
 */
export function streamBody(
  req: IncomingMessage,
  limitBytes: number,
  consume: (chunk: Buffer) => void | Promise<void>,
): Promise<number> {
  // Its 'end' has been and gone: waiting for it would hang the request.
  if (req.readableEnded) return Promise.reject(new InternalError('request body already read'));
  const isLimited = limitBytes >= 0;
  if (isLimited && Number(req.headers['content-length'] ?? 0) > limitBytes) {
    return Promise.reject(new RequestTooLargeError(limitBytes));
  }
  return new Promise((resolve, reject) => {
    let received = 0;
    let pending: Promise<void> = Promise.resolve();
    let failed = false;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (isLimited && received > limitBytes) {
        stop();
        req.resume(); // discard the rest: flowing with no 'data' listener
        reject(new RequestTooLargeError(limitBytes));
        return;
      }
      const fail = (err: unknown): void => {
        failed = true;
        stop();
        req.resume(); // discard the rest, as for an oversized body
        reject(err);
      };
      let result: void | Promise<void>;
      try {
        result = consume(chunk);
      } catch (err) {
        fail(err);
        return;
      }
      if (!(result instanceof Promise)) return;
      req.pause();
      pending = result.then(() => {
        if (!failed) req.resume();
      }, fail);
    };
    const onEnd = (): void => {
      stop();
      pending.then(() => {
        if (!failed) resolve(received);
      });
    };
    // The client went away before the end of the body (Node emits 'close' without 'end', or 'error').
    const onError = (cause?: Error): void => {
      stop();
      reject(new InvalidRequestError('request body incomplete: the connection closed', { cause }));
    };
    const onClose = (): void => onError();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
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
