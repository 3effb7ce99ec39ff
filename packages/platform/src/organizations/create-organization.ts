import { EMAIL_PATTERN, NAME_PATTERN, requiredString } from '../api/input.js';
import type { PlatformContext } from '../context.js';
import { UnprocessableError } from '../jsonapi/errors.js';
import { isUniqueViolation, type OrganizationRow, type UserRow } from '../store/index.js';
import { startOnFreePlan } from '../subscriptions/plans.js';

/** The attributes of a new organization, as `POST /organizations` and the web form take them. */
export interface NewOrganization {
  name: string;
  email: string;
}

/**
 * Validates a new organization's attributes (422 with `source.pointer` naming the attribute).
 * The API passes its document's `data.attributes`, the web form its fields.
 */
export function readNewOrganization(attributes: Record<string, unknown>): NewOrganization {
  const name = requiredString(attributes, 'name', {
    pattern: NAME_PATTERN,
    hint: 'may hold only letters, digits, "-" and "_" (at most 40)',
  });
  const email = requiredString(attributes, 'email', { pattern: EMAIL_PATTERN });
  return { name, email };
}

/**
 * Creates the organization with `user` as its owner on the free plan: the three appear together
 * or not at all. A taken name (case-insensitive) is a 422 on `name`.
 */
export async function createOrganization(
  ctx: PlatformContext,
  user: UserRow,
  input: NewOrganization,
): Promise<OrganizationRow> {
  const taken = () =>
    new UnprocessableError('name has already been taken', { source: { pointer: '/data/attributes/name' } });
  const org = await ctx.store
    .transaction(async (tx) => {
      if (await tx.organizations.byName(input.name)) throw taken();
      const created = await tx.organizations.create({ name: input.name, email: input.email, nowMs: ctx.clock.now() });
      await tx.organizations.addMember(created.id, user.id, 'owner', ctx.clock.now());
      await startOnFreePlan({ ...ctx, store: tx }, created.id);
      return created;
    })
    .catch((err) => {
      // Another process took the name between the check and the insert.
      throw isUniqueViolation(err) ? taken() : err;
    });
  ctx.logger.info('organization created', { organization: org.name, user: user.username });
  return org;
}
