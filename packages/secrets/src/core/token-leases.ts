import type { Clock, Logger, Random } from '@ward/base';
import { type AesGcmBarrier, createView } from './barrier/index.js';
import { ExpirationManager, type LeaseEntry } from './expiration/index.js';
import { loginRenewal, type PipelineCore } from './request-handling.js';
import { TOKEN_AUTH_ENTRY } from './router/builtin-entries.js';
import type { Router } from './router/router.js';
import { renewSecretLease, revokeSecretLease } from './secret-leases.js';
import { TokenStore, tokenLeaseId } from './tokens/index.js';

/** What the token store and the expiration manager are built from. */
export interface TokenLeaseParts {
  barrier: AesGcmBarrier;
  router: Router;
  random: Random;
  clock: Clock;
  logger: Logger;
  /** The core, asked only once unsealed: a login renewal reads its auth method's settings, a token login its entity. */
  core: PipelineCore;
}

/**
 * The token store and the expiration manager, built together because each calls the other:
 * token lifetimes are leases (the expiration manager revokes a token when its TTL ends), and
 * revoking a token revokes every lease it owns.
 */
export function createTokensAndLeases(parts: TokenLeaseParts): { tokens: TokenStore; expiration: ExpirationManager } {
  const { barrier, router, random, clock, logger, core } = parts;
  const expiration: ExpirationManager = new ExpirationManager({
    storage: createView(barrier, 'sys/expire/'),
    clock,
    random,
    logger: logger.child({ component: 'expiration' }),
    // The token store is set up (its salt loaded) before leases are restored.
    accessorDigest: (accessor) => tokens.accessorDigest(accessor),
    revoker: {
      revoke: (lease) => revokeLease(lease, tokens, router),
      renew: (lease, incrementSeconds) => renewSecretLease(router, lease, incrementSeconds),
    },
  });
  const tokens: TokenStore = new TokenStore({
    storage: createView(barrier, 'sys/token/'),
    random,
    clock,
    hooks: {
      onRevoke: async (e) => {
        await expiration.revokeByToken(e.accessor);
        // What backends keep per token (its cubbyhole) goes with it.
        for (const route of router.routes()) await route.backend.tokenRevoked?.(e.accessor);
      },
      onIssue: async (e) => {
        await expiration.register({
          path: e.path,
          ttlSeconds: e.ttl,
          renewable: e.renewable,
          kind: 'token',
          tokenAccessor: e.accessor,
          idSuffix: e.hash,
        });
      },
      onRenew: (e) => expiration.renewToken(tokenLeaseId(e), e.ttl),
      // A login token renews under its auth method's current settings.
      loginRenewal: (e) => loginRenewal(core, e),
      entityForAlias: async (namespaceId, name) =>
        (await core.namespaceServices().identity(namespaceId).loginEntity(TOKEN_AUTH_ENTRY.accessor, name)).id,
    },
  });
  return { tokens, expiration };
}

/** A lease ended: a token lease revokes the token (and its children); a secret lease asks its backend. */
async function revokeLease(lease: Readonly<LeaseEntry>, tokens: TokenStore, router: Router): Promise<void> {
  if (lease.kind === 'token') {
    await tokens.revokeTree(lease.token_accessor);
    return;
  }
  await revokeSecretLease(router, lease);
}
