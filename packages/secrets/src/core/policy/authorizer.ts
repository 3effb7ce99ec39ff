import { PermissionDeniedError } from '../../logical/errors.js';
import type { EntityFacts } from '../../logical/identity-template.js';
import type { Operation } from '../../logical/request.js';

/** What the ACL needs to decide on one request. */
export interface AccessQuestion {
  policies: readonly string[];
  operation: Operation;
  /** Full request path, namespace included. */
  path: string;
  /** The path is root-protected: `sudo` is needed besides the operation's capability. */
  needsSudo: boolean;
  /** The request's data (body or query), for `allowed/denied/required_parameters`. */
  data?: Readonly<Record<string, unknown>>;
  /** The caller's identity, to fill templated policy paths; without it those rules grant nothing. */
  entity?: EntityFacts;
  /** Judge the path and operation alone: the body is not read yet, its parameter rules come later. */
  isBodyPending?: boolean;
  /** The response-wrapping TTL the request asked for, for `min/max_wrapping_ttl`. */
  wrapTtlSeconds?: number;
}

/**
 * Decides whether a token's policies allow a request; throws (or rejects with)
 * `PermissionDeniedError` when not. Callers must await the result: deciding may need
 * policies loaded from storage.
 */
export interface Authorizer {
  authorize(question: AccessQuestion): void | Promise<void>;
}

/**
 * The only rule that holds before policies exist: the `root` policy may do anything,
 * nothing else may do anything. The ACL engine (`createAclAuthorizer`) replaces this
 * behind the same interface.
 */
export const rootOnlyAuthorizer: Authorizer = {
  authorize({ policies }) {
    if (!policies.includes('root')) throw PermissionDeniedError.denied();
  },
};
