import { CodedError } from '@ward/base';

/**
 * Every error the platform reports on purpose, and the one place that turns it into an HTTP
 * status and a JSON:API error object. Callers and tests match on `code`, never on text.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited';

export abstract class PlatformError extends CodedError<ErrorCode> {
  /** Where in the request the problem is (JSON:API `source`), when known. */
  readonly source: { pointer?: string; parameter?: string } | undefined;

  constructor(message: string, options?: { source?: { pointer?: string; parameter?: string }; cause?: unknown }) {
    super(message, options);
    this.source = options?.source;
  }
}

export class InvalidRequestError extends PlatformError {
  readonly code = 'invalid_request';
}
/** A missing, unknown, expired or revoked token; never used for permissions. */
export class UnauthorizedError extends PlatformError {
  readonly code = 'unauthorized';
}
/** Only for the web pages, where the user already knows the organization exists. */
export class ForbiddenError extends PlatformError {
  readonly code = 'forbidden';
}
/** Also what a valid token without access gets, so existence is not leaked. */
export class NotFoundError extends PlatformError {
  readonly code = 'not_found';
  constructor(message = 'not found') {
    super(message);
  }
}
export class MethodNotAllowedError extends PlatformError {
  readonly code = 'method_not_allowed';
  constructor(readonly allowedMethods: readonly string[]) {
    super(`this resource only allows ${allowedMethods.join(', ')}`);
  }
}
export class PayloadTooLargeError extends PlatformError {
  readonly code = 'payload_too_large';
}
export class UnsupportedMediaTypeError extends PlatformError {
  readonly code = 'unsupported_media_type';
}
/** A well-formed request whose content fails validation (taken name, bad email, ...). */
export class UnprocessableError extends PlatformError {
  readonly code = 'unprocessable';
}

/** Over the per-token request rate; the response carries `Retry-After`. */
export class RateLimitedError extends PlatformError {
  readonly code = 'rate_limited';
  constructor() {
    super("You have exceeded the API's rate limit.");
  }
}

/** A Record, so adding a code without a status and title is a compile error. */
export const ERRORS: Record<ErrorCode, { status: number; title: string }> = {
  invalid_request: { status: 400, title: 'bad request' },
  unauthorized: { status: 401, title: 'unauthorized' },
  forbidden: { status: 403, title: 'forbidden' },
  not_found: { status: 404, title: 'not found' },
  method_not_allowed: { status: 405, title: 'method not allowed' },
  payload_too_large: { status: 413, title: 'payload too large' },
  unsupported_media_type: { status: 415, title: 'unsupported media type' },
  unprocessable: { status: 422, title: 'invalid attribute' },
  rate_limited: { status: 429, title: 'Too many requests' },
};

export interface ErrorObject {
  status: string;
  title: string;
  detail?: string;
  code?: string;
  source?: { pointer?: string; parameter?: string };
}

export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: { errors: ErrorObject[] };
}

/**
 * The status and JSON:API error document for `err`. Unknown errors become a bare 500; their
 * detail goes to `logError` only, never to the client.
 */
export function errorReply(err: unknown, logError: (err: unknown) => void): ErrorReply {
  if (!(err instanceof PlatformError)) {
    logError(err);
    return { status: 500, headers: {}, body: { errors: [{ status: '500', title: 'internal error' }] } };
  }
  const { status, title } = ERRORS[err.code];
  const headers: Record<string, string> = {};
  if (err instanceof MethodNotAllowedError) headers.allow = err.allowedMethods.join(', ');
  // 401 and 404 keep the established bodies exactly, so clients that compare them keep working.
  if (err.code === 'not_found' || err.code === 'unauthorized') {
    return { status, headers, body: { errors: [{ status: String(status), title }] } };
  }
  const object: ErrorObject = { status: String(status), title, detail: err.message, code: err.code };
  if (err.source) object.source = err.source;
  return { status, headers, body: { errors: [object] } };
}

/** The HTTP status for `err`, for the HTML pages that share this mapping. */
export function statusOf(err: unknown): number {
  return err instanceof PlatformError ? ERRORS[err.code].status : 500;
}
