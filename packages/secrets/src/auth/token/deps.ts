import type { Clock } from '@ward/base';
import type { RoleStore, TokenEntry, TokenStore } from '../../core/tokens/index.js';
import type { SystemView } from '../../framework/index.js';
import { PermissionDeniedError } from '../../logical/errors.js';
import type { BackendRequest } from '../../logical/request.js';

/**
 * What the core tells the token backend besides its mount context. The core owns the
 * ACL and the policy store; the backend only asks these questions.
 */
export interface TokenBackendOptions {
  /**
   * Whether the caller holds `sudo` (or root) on `path` (full path, e.g. `auth/token/create`).
   * Defaults to "has the root policy".
   */
  hasSudo?(req: BackendRequest, path: string): boolean | Promise<boolean>;
  /** Whether a policy exists; when given, creating a token with a missing policy adds a warning. */
  policyExists?(name: string): Promise<boolean>;
  /** Namespace of this mount: tokens it creates belong there. Default `root`. */
  namespaceId?: string;
  /**
   * The entity a token's `entity_id` means now (itself, or the entity it was merged into) and the
   * policies that entity and its groups add; lookups show both, as the token's requests are judged.
   */
  identityOf?(entityId: string): TokenIdentity | undefined;
  /** The namespace's token roles. Default: the token store's own (the root namespace's). */
  roles?: RoleStore;
}

export interface TokenIdentity {
  entityId: string;
  policies: string[];
}

/**
 * A request as the token backend sees it. Unlike other backends it needs the caller's own
 * token text (`lookup-self` shows it, batch tokens carry their entry in it), so the core
 * passes it on requests routed to `auth/token/` only; without it the caller is found by accessor.
 */
export type TokenRequest = BackendRequest & { clientToken?: string };

/** Shared by every path of the token backend. */
export interface TokenBackendDeps {
  store: TokenStore;
  /** This namespace's token roles: each namespace has its own. */
  roles: RoleStore;
  clock: Clock;
  system: SystemView;
  hasSudo(req: BackendRequest, path: string): Promise<boolean>;
  policyExists?(name: string): Promise<boolean>;
  namespaceId: string;
  identityOf(entityId: string): TokenIdentity | undefined;
}

/** The caller's own token and entry (even on the request spending its last use); 403 when it has none. */
export async function callerToken(
  d: TokenBackendDeps,
  req: TokenRequest,
): Promise<{ token: string; entry: TokenEntry }> {
  const opts = { includeExhausted: true };
  if (req.clientToken) {
    const entry = await d.store.lookup(req.clientToken, opts);
    if (entry) return { token: req.clientToken, entry };
  } else if (req.caller?.accessor) {
    const entry = await d.store.lookupAccessor(req.caller.accessor, opts);
    if (entry) return { token: '', entry };
  }
  throw PermissionDeniedError.denied();
}

/** The mount's effective TTLs, read at each request so tuning applies at once. */
export function mountTtls(d: TokenBackendDeps) {
  return { defaultTtlSeconds: d.system.defaultLeaseTtlSeconds(), maxTtlSeconds: d.system.maxLeaseTtlSeconds() };
}
