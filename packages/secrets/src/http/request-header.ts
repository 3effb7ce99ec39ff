import type { IncomingMessage } from 'node:http';
import { PreconditionFailedError } from '../logical/errors.js';

/** The established name, and the name the spec gives the same header. */
const REQUEST_HEADERS = ['x-vault-request', 'x-service-request'];

/**
 * The `require_request_header` rule: a request must carry `X-Vault-Request: true` (or
 * `X-Service-Request: true`) exactly once. Browsers cannot add such a header to a cross-site
 * form post or image load without a CORS preflight, so this guards a local listener against
 * request forgery. A repeated header or any other value is refused like a missing one (412).
 */
export function checkRequestHeader(req: IncomingMessage): void {
  const present = REQUEST_HEADERS.map((name) => req.headersDistinct[name]).filter((v) => v !== undefined);
  const isValid = present.length > 0 && present.every((values) => values.length === 1 && values[0] === 'true');
  if (!isValid) throw new PreconditionFailedError('missing "X-Vault-Request" header');
}
