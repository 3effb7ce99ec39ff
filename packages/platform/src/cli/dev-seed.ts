import { randomBase62 } from '@ward/base';
import type { PlatformContext } from '../context.js';
import { isUniqueViolation } from '../store/index.js';

const DEV_ADMIN_USERNAME = 'admin';

/**
 * For `--dev`: an admin user (site administrator) with a token equal to `token`, or a random one.
 * Idempotent over a kept database: the admin is created once, and the token is added only if
 * it is not already known.
 */
export async function seedDevAdmin(
  ctx: Pick<PlatformContext, 'store' | 'clock' | 'random'>,
  token: string | undefined,
): Promise<{ userId: string; token: string }> {
  const secret = token ?? `${randomBase62(ctx.random, 14)}.wardv1.${randomBase62(ctx.random, 64)}`;
  try {
    return await seedOnce(ctx, secret);
  } catch (err) {
    // Two processes started together on one PostgreSQL database: the other one made the admin
    // (or its token) between our look-up and our insert. Its rows are now there to find.
    if (!isUniqueViolation(err)) throw err;
    return seedOnce(ctx, secret);
  }
}

function seedOnce(ctx: Pick<PlatformContext, 'store' | 'clock'>, secret: string) {
  return ctx.store.transaction(async (tx) => {
    const nowMs = ctx.clock.now();
    const admin =
      (await tx.users.byUsername(DEV_ADMIN_USERNAME)) ??
      (await tx.users.create({ username: DEV_ADMIN_USERNAME, email: 'admin@ward.invalid', isSiteAdmin: true, nowMs }));
    const existing = await tx.tokens.bySecret(secret);
    if (existing && existing.user_id !== admin.id) throw new Error('--dev-token is already in use by another token');
    if (!existing) {
      await tx.tokens.createUserToken({
        userId: admin.id,
        description: 'dev admin token',
        expiredAtMs: null,
        nowMs,
        secret,
      });
    }
    return { userId: admin.id, token: secret };
  });
}
