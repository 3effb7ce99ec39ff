import { PermissionDeniedError } from '../../logical/errors.js';
import type { Acl } from './acl.js';
import type { AccessQuestion, Authorizer } from './authorizer.js';
import { ROOT_POLICY } from './builtin-policies.js';
import type { PolicyStore } from './policy-store.js';

/**
 * The ACL `Authorizer`: the `root` policy may do anything; otherwise the compiled ACL of
 * the token's policies (cached by the store) must grant the operation's capability, the
 * parameter rules must pass, and a root-protected path also needs `sudo`. Every refusal
 * is `PermissionDeniedError.denied()`, so a caller learns nothing about why or what exists.
 */
export function createAclAuthorizer(store: PolicyStore): Authorizer {
  return {
    authorize(question: AccessQuestion): void | Promise<void> {
      if (question.policies.includes(ROOT_POLICY)) return;
      // Synchronous when the ACL is compiled already: the common request awaits nothing here.
      const cached = store.cachedAcl(question.policies);
      if (cached) return decide(cached, question);
      return store.acl(question.policies).then((acl) => decide(acl, question));
    },
  };
}

function decide(acl: Acl, question: AccessQuestion): void {
  const decision = acl.forEntity(question.entity).allowed(question.operation, question.path, question.data, {
    wrapTtlSeconds: question.wrapTtlSeconds,
    skipsParameters: question.isBodyPending,
  });
  // Help is answered for any valid token, sudo or not (the established servers do the same).
  const needsSudo = question.needsSudo && question.operation !== 'help';
  if (!decision.allowed || (needsSudo && !decision.isSudo)) throw PermissionDeniedError.denied();
}
