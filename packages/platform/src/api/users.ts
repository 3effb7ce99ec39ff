import { requireUser } from '../auth/principal.js';
import { NotFoundError, UnprocessableError } from '../jsonapi/errors.js';
import { isUniqueViolation } from '../store/index.js';
import type { ApiRoute } from './api-route.js';
import { attributesOf, EMAIL_PATTERN, NAME_PATTERN, requiredString } from './input.js';
import { userResource } from './resources.js';

export const userRoutes: ApiRoute[] = [
  {
    method: 'GET',
    pattern: '/account/details',
    handler: async (_ctx, req) => ({ document: { data: userResource(requireUser(req.principal)) } }),
  },
  {
    // Ward has no sign-up page: a site administrator (the `--dev` admin, for one) adds users.
    method: 'POST',
    pattern: '/admin/users',
    handler: async (ctx, req) => {
      if (requireUser(req.principal).is_site_admin !== 1) throw new NotFoundError();
      const attributes = attributesOf(req.body, 'users');
      const username = requiredString(attributes, 'username', {
        pattern: NAME_PATTERN,
        hint: 'may hold only letters, digits, "-" and "_" (at most 40)',
      });
      const email = requiredString(attributes, 'email', {
        pattern: EMAIL_PATTERN,
      });
      const taken = () =>
        new UnprocessableError('username has already been taken', { source: { pointer: '/data/attributes/username' } });
      if (await ctx.store.users.byUsername(username)) throw taken();
      const user = await ctx.store.users
        .create({ username, email, isSiteAdmin: false, nowMs: ctx.clock.now() })
        .catch((err) => {
          // Another request took the name between the check and the insert.
          throw isUniqueViolation(err) ? taken() : err;
        });
      return { status: 201, document: { data: userResource(user) } };
    },
  },
];
