import type { IncomingMessage } from 'node:http';
import { CodedError } from './coded-error.js';

/** The errors a package's body reader throws: each server answers them with its own error type and status. */
export interface BodyErrors {
  /** The body is over `limitBytes`, by its `Content-Length` or by the bytes received (413). */
  tooLarge(limitBytes: number): Error;
  /** The connection closed before the body ended (400). */
  incomplete(cause: Error | undefined): Error;
  /** The body was read before (a programming error); default: a `BodyAlreadyReadError`. */
  alreadyRead?(): Error;
}

/** `readBody` or `streamBody` was called on a request whose body had already been read. */
export class BodyAlreadyReadError extends CodedError<'body_already_read'> {
  readonly code = 'body_already_read';
  constructor() {
    super('request body already read');
  }
}

/**
 * The one request-body reader of ward, ward-agent and ward-platform: the whole body, refusing more
 * than `limitBytes` (negative: no limit).
 *
 * Rejects with `errors.incomplete` if the connection closes before the body ends, and with
 * `errors.tooLarge`:
 * - at once, before reading a byte, when `Content-Length` says the body is over the limit;
 * - for a chunked body, as soon as the bytes received pass the limit. What was read is dropped,
 *   and the rest of the body is discarded as it arrives, never buffered.
 */
export async function readBody(req: IncomingMessage, limitBytes: number, errors: BodyErrors): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const received = await streamBody(req, limitBytes, errors, (chunk) => {
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
  errors: BodyErrors,
  consume: (chunk: Buffer) => void | Promise<void>,
): Promise<number> {
  // Its 'end' has been and gone: waiting for it would hang the request.
  if (req.readableEnded) return Promise.reject(errors.alreadyRead?.() ?? new BodyAlreadyReadError());
  const isLimited = limitBytes >= 0;
  if (isLimited && Number(req.headers['content-length'] ?? 0) > limitBytes) {
    return Promise.reject(errors.tooLarge(limitBytes));
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
        reject(errors.tooLarge(limitBytes));
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
      reject(errors.incomplete(cause));
    };
    const onClose = (): void => onError();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
