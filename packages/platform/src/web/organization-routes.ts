import { PlatformError } from '../jsonapi/errors.js';
import { createOrganization, readNewOrganization } from '../organizations/create-organization.js';
import {
  EMPTY_ORGANIZATION_FORM,
  NEW_ORGANIZATION_PATH,
  newOrganizationPage,
  type OrganizationForm,
} from './organization-view.js';
import { checkCsrf, currentSession, type SignedIn } from './session.js';
import type { WebRoute } from './web-route.js';

const FIELDS = ['name', 'email'] as const;

/** Creating an organization from the web UI, with the API's own validation and service. Both editions. */
export const organizationRoutes: WebRoute[] = [
  {
    method: 'GET',
    pattern: NEW_ORGANIZATION_PATH,
    handler: async (ctx, req) => {
      const signedIn = await currentSession(ctx, req.cookies);
      if (!signedIn) return signInFirst();
      return { kind: 'page', html: newOrganizationPage(EMPTY_ORGANIZATION_FORM, chromeOf(signedIn)) };
    },
  },
  {
    method: 'POST',
    pattern: '/app/organizations',
    handler: async (ctx, req) => {
      const signedIn = await currentSession(ctx, req.cookies);
      checkCsrf(signedIn?.csrfToken, req.form.get('authenticity_token'));
      if (!signedIn) return signInFirst();
      // A blank field arrives as "", which the API would call invalid: for a form it is missing.
      const attributes = Object.fromEntries(FIELDS.map((f) => [f, req.form.get(f) || null]));
      try {
        const org = await createOrganization(ctx, signedIn.user, readNewOrganization(attributes));
        // Post/redirect/get: reloading the list must not create it again.
        return { kind: 'redirect', location: `/app?created=${encodeURIComponent(org.name)}` };
      } catch (err) {
        if (!(err instanceof PlatformError) || err.code !== 'unprocessable') throw err;
        // The API's error names its attribute (`/data/attributes/name`): show it under that field.
        const key = FIELDS.find((f) => err.source?.pointer === `/data/attributes/${f}`);
        const form: OrganizationForm = {
          name: req.form.get('name') ?? '',
          email: req.form.get('email') ?? '',
          errors: new Map(key ? [[key, err.message]] : []),
          formError: key ? null : err.message,
        };
        return { kind: 'page', status: 422, html: newOrganizationPage(form, chromeOf(signedIn)) };
      }
    },
  },
];

function signInFirst() {
  return {
    kind: 'redirect' as const,
    location: `/app/session/new?return_to=${encodeURIComponent(NEW_ORGANIZATION_PATH)}`,
  };
}

function chromeOf(signedIn: SignedIn) {
  return { username: signedIn.user.username, csrfToken: signedIn.csrfToken, current: null };
}
