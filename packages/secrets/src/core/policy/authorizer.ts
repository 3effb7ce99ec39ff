import { PermissionDeniedError } from '../../logical/errors.js';
import type { Operation } from '../../logical/request.js';

/** What the ACL needs to decide on one request. */
export interface AccessQuestion {
  policies: readonly string[];
  operation: Operation;
  /** Full request path, namespace included. */
  path: string;
  /** The path is root-protected: `sudo` is needed besides the operation's capability. */
  needsSudo: boolean;
}

/** Decides whether a token's policies allow a request; throws `PermissionDeniedError` when not. */
export interface Authorizer {
  authorize(question: AccessQuestion): void;
}

/**
 * The only rule that holds before policies exist: the `root` policy may do anything,
 * nothing else may do anything. The ACL engine (policy documents, capabilities, globs)
 * replaces this behind the same interface.
 */
export const rootOnlyAuthorizer: Authorizer = {
  authorize({ policies }) {
    if (!policies.includes('root')) throw PermissionDeniedError.acl();
  },
};
