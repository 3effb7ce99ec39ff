import type { Caller, LogicalRequest } from '../../logical/request.js';
import type { LogicalResponse } from '../../logical/response.js';

/** One request as the audit log records it, after authentication. */
export interface AuditedRequest {
  request: LogicalRequest;
  /** The request's namespace path (`''` for root) and its path there. */
  namespacePath: string;
  /** Mount type serving the path, `''` when none matched. */
  mountType: string;
  /** The caller, absent on unauthenticated paths (logins) or when authentication failed. */
  caller?: Caller;
  /** Operation after the existence check (`create` or `update` for writes). */
  operation: string;
}

/**
 * Where the request pipeline reports every request and its outcome. Implementations write
 * to the enabled audit devices; when none can write, they throw and the request fails
 * (established behaviour: nothing is served that could not be audited).
 */
export interface AuditBroker {
  /** Whether any device is enabled; the pipeline skips building entries when not. */
  readonly isEnabled: boolean;
  logRequest(entry: AuditedRequest): Promise<void>;
  logResponse(entry: AuditedRequest, outcome: { response?: LogicalResponse; error?: unknown }): Promise<void>;
}

/** The broker of a server without audit devices. */
export const NO_AUDIT: AuditBroker = {
  isEnabled: false,
  logRequest: async () => {},
  logResponse: async () => {},
};
