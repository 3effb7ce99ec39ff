import { CodedError } from '@ward/base';

/**
 * Every error a request can end in. Code decides the HTTP status, in one place
 * (`http/respond.ts`); callers and tests match on `code` or the class, never on text.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'permission_denied'
  | 'not_found'
  | 'unsupported_path'
  | 'unsupported_operation'
  | 'unsupported_media_type'
  | 'precondition_failed'
  | 'request_too_large'
  | 'too_many_requests'
  | 'storage_full'
  | 'upstream_failed'
  | 'sealed'
  | 'internal';

export abstract class LogicalError extends CodedError<ErrorCode> {
  /** The strings of the `errors` array; an empty message sends `[]`, as established servers do. */
  get errors(): string[] {
    return this.message ? [this.message] : [];
  }
}

/** The caller sent something wrong: a missing or malformed field, a rule broken. 400. */
export class InvalidRequestError extends LogicalError {
  readonly code = 'invalid_request';
}

/** Wrong credentials or no access. 403. */
export class PermissionDeniedError extends LogicalError {
  readonly code = 'permission_denied';
  /**
   * The one refusal of a token, whether it is unknown, expired, out of its CIDRs or namespace, or
   * valid but without access: a different text for each would tell an attacker which tokens are valid.
   */
  static denied(): PermissionDeniedError {
    return new PermissionDeniedError('permission denied');
  }
}

/** Nothing at that path (or a read/list that found nothing: then the message is empty). 404. */
export class NotFoundError extends LogicalError {
  readonly code = 'not_found';
}

/** A mount matched but none of its paths did, or a path parameter ends in a period. 404. */
export class UnsupportedPathError extends LogicalError {
  readonly code = 'unsupported_path';
  constructor() {
    super(multiError(['unsupported path']));
  }
}

/** The path exists but does not support this operation. 405. */
export class UnsupportedOperationError extends LogicalError {
  readonly code = 'unsupported_operation';
  constructor(message = multiError(['unsupported operation'])) {
    super(message);
  }
}

export class UnsupportedMediaTypeError extends LogicalError {
  readonly code = 'unsupported_media_type';
}

export class PreconditionFailedError extends LogicalError {
  readonly code = 'precondition_failed';
}

/** The request body is over the listener's `max_request_size`. 413. */
export class RequestTooLargeError extends LogicalError {
  readonly code = 'request_too_large';
  constructor(limitBytes: number) {
    super(`http: request body too large (limit ${limitBytes} bytes)`);
  }
}

/** The server will not take this request now (a bounded queue is full or its wait ran out); retry later. 429. */
export class TooManyRequestsError extends LogicalError {
  readonly code = 'too_many_requests';
}

/**
 * The store has no room for a write (the disk is full): nothing of the write happened. 507
 * Insufficient Storage, with one log line; reads go on working.
 */
export class StorageFullError extends LogicalError {
  readonly code = 'storage_full';
  constructor(options?: { cause?: unknown }) {
    super("storage full: the write was not stored; free space on the server's disk", options);
  }
}

/** A required call to a third party (LDAP, KMS, object store) failed. 502. */
export class UpstreamError extends LogicalError {
  readonly code = 'upstream_failed';
}

/** The server is sealed (or not initialised). 503. */
export class SealedError extends LogicalError {
  readonly code = 'sealed';
  constructor() {
    super('Vault is sealed');
  }
}

/** A failure the caller cannot fix; the detail goes to the log, the client sees `internal error`. 500. */
export class InternalError extends LogicalError {
  readonly code = 'internal';
}

/**
 * The go-multierror framing established clients substring-match on:
 * `1 error occurred:\n\t* unsupported path\n\n`.
 */
export function multiError(messages: string[]): string {
  const head = messages.length === 1 ? '1 error occurred:' : `${messages.length} errors occurred:`;
  return `${head}\n${messages.map((m) => `\t* ${m}`).join('\n')}\n\n`;
}
