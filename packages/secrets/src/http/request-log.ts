import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger, Random } from '@ward/base';
import type { RequestTrace } from '../logical/request.js';

export interface RequestLogOptions {
  logger: Logger;
  random: Random;
  /** `log_requests`: every request at `info`; otherwise at `debug` (shown with `-log-level=debug`). */
  isEveryRequestInfo: boolean;
}

/**
 * Logs one request; call it once the response is finished. `trace` is what the core learnt
 * (accessor, denial), `seconds` how long the answer took.
 */
export type RequestLogger = (req: IncomingMessage, res: ServerResponse, trace: RequestTrace, seconds: number) => void;

/**
 * One structured line per request (method, path, status, duration, namespace, a digest of the
 * token's accessor) and, at `info`, every refusal by the ACL with the path and the policies
 * that decided it. The token never appears, nor any body or query: they may hold secrets.
 */
export function createRequestLogger(options: RequestLogOptions): RequestLogger {
  // Keyed per process: a digest lets an operator follow one token's requests without the log
  // naming its accessor, which would let a reader of the log revoke or look it up.
  const key = options.random.bytes(32);
  const digest = (accessor: string) =>
    `hmac-sha256:${createHmac('sha256', key).update(accessor).digest('hex').slice(0, 16)}`;
  const level = options.isEveryRequestInfo ? 'info' : 'debug';
  return (req, res, trace, seconds) => {
    // Checked first: at the default level no request line is written, and building one costs an HMAC.
    if (options.logger.isEnabled?.(level) !== false) {
      options.logger[level]('request', {
        method: req.method ?? '',
        // The path only: a query string may carry data.
        path: (req.url ?? '').split('?')[0],
        status: res.statusCode,
        duration_ms: seconds * 1e3,
        namespace: String(req.headers['x-vault-namespace'] ?? req.headers['x-service-namespace'] ?? ''),
        ...(trace.accessor ? { accessor_digest: digest(trace.accessor) } : {}),
      });
    }
    if (trace.denial) {
      options.logger.info('permission denied', {
        path: trace.denial.path,
        operation: trace.denial.operation,
        policies: trace.denial.policies,
        decision: 'no policy grants this capability',
        ...(trace.accessor ? { accessor_digest: digest(trace.accessor) } : {}),
      });
    }
  };
}
