import { CodedError } from '@ward/base';

/**
 * Typed errors of the agent. Code decides the HTTP status in exactly one place
 * (`http/respond.ts`); callers and tests match on `code`, never on the message.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'permission_denied'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'not_applicable'
  | 'unhealthy'
  | 'upstream_failed'
  | 'internal';

export abstract class AgentError extends CodedError<ErrorCode> {}

/** Bad query parameter or body: 400. */
export class InvalidRequestError extends AgentError {
  readonly code = 'invalid_request';
}
/** Missing capability, unknown token: 403. */
export class PermissionDeniedError extends AgentError {
  readonly code = 'permission_denied';
}
/** Unknown profile, token, policy: 404. */
export class NotFoundError extends AgentError {
  readonly code = 'not_found';
}
/** Wrong HTTP verb: 405 `Invalid method`. */
export class MethodNotAllowedError extends AgentError {
  readonly code = 'method_not_allowed';
  constructor() {
    super('Invalid method');
  }
}
/** Request body above the limit: 413. */
export class PayloadTooLargeError extends AgentError {
  readonly code = 'payload_too_large';
}
/** Server-only endpoint on a client-only agent or the reverse: 501 `Invalid method`. */
export class NotApplicableError extends AgentError {
  readonly code = 'not_applicable';
  constructor() {
    super('Invalid method');
  }
}
/** Health check failed: 500 with the JSON health body as text. */
export class UnhealthyError extends AgentError {
  readonly code = 'unhealthy';
}
/** A remote agent could not be reached or answered with a failure it did not classify: 500. */
export class UpstreamError extends AgentError {
  readonly code = 'upstream_failed';
}
/** A failure we understand but cannot fix from the request, e.g. no leader yet: 500. */
export class InternalError extends AgentError {
  readonly code = 'internal';
}

/** Rebuilds a typed error from its code, for errors that crossed the RPC wire. */
export function errorFromCode(code: string, message: string): AgentError {
  switch (code) {
    case 'invalid_request':
      return new InvalidRequestError(message);
    case 'permission_denied':
      return new PermissionDeniedError(message);
    case 'not_found':
      return new NotFoundError(message);
    case 'method_not_allowed':
      return new MethodNotAllowedError();
    case 'not_applicable':
      return new NotApplicableError();
    case 'payload_too_large':
      return new PayloadTooLargeError(message);
    case 'unhealthy':
      return new UnhealthyError(message);
    case 'internal':
      return new InternalError(message);
    default:
      return new UpstreamError(message);
  }
}
