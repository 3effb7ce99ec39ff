import type { PolicyStore } from '../core/policy/policy-store.js';
import type { TokenPolicyResolver } from '../core/system-core.js';
import { PermissionDeniedError } from '../logical/errors.js';
import type { BackendRequest } from '../logical/request.js';

/**
 * Who may cancel a root-token generation or a rekey (HCSEC-2026-08, CVE-2026-5807). Those endpoints
 * need no token, as established and as the spec says: the shares are the holders' credential. But
 * then anyone who reaches the port could cancel an attempt again and again and throw away the
 * shares submitted so far. So once an attempt has a share (or a rekey awaits verification), only a
 * token with `sudo` on the path may cancel it; an attempt without one may still be cancelled by
 * anyone, so a squatted slot is never stuck. Established servers fixed the advisory by making the
 * endpoints need a token; this keeps them open to share holders and closes the cancellation.
 */
export type CancelGuard = (req: BackendRequest, path: string, hasProgress: boolean) => Promise<void>;

export function createCancelGuard(policies: PolicyStore, tokens: TokenPolicyResolver): CancelGuard {
  return async (req, path, hasProgress) => {
    if (!hasProgress) return;
    const held = req.clientToken ? await tokens.policiesOfToken(req.clientToken) : undefined;
    if (held) {
      const capabilities = (await policies.acl(held)).forEntity(undefined).capabilities(path);
      if (capabilities.includes('sudo') || capabilities.includes('root')) return;
    }
    throw new PermissionDeniedError(
      `shares have been submitted: cancelling needs a token with sudo on ${path} (HCSEC-2026-08)`,
    );
  };
}
