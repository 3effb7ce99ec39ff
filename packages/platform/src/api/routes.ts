import type { Edition } from '../context.js';
import type { ApiRoute } from './api-route.js';
import { tokenRoutes } from './authentication-tokens.js';
import { entitlementSetRoutes, featureSetRoutes } from './feature-sets.js';
import { organizationRoutes } from './organizations.js';
import { subscriptionRoutes } from './subscriptions.js';
import { userRoutes } from './users.js';

/**
 * Every `/api/v2` route of an edition. The plan routes are not registered at all in the
 * self-hosted edition, so every method on them is a plain 404 there.
 */
export function apiRoutes(edition: Edition): ApiRoute[] {
  return [
    ...organizationRoutes,
    ...entitlementSetRoutes,
    ...tokenRoutes,
    ...userRoutes,
    ...(edition === 'hosted' ? [...subscriptionRoutes, ...featureSetRoutes] : []),
  ];
}
