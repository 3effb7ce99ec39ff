import type { OrganizationRow } from '../store/index.js';
import { billingPath } from './billing-view.js';
import { type Chrome, html, page } from './html.js';
import { NEW_ORGANIZATION_PATH } from './organization-view.js';

export function signInPage(csrfToken: string, returnTo: string, error: string | null): string {
  return page(
    'Sign in',
    html`<h1>Sign in</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/app/session">
<input type="hidden" name="authenticity_token" value="${csrfToken}">
<input type="hidden" name="return_to" value="${returnTo}">
<label for="token">API token</label>
<input type="password" id="token" name="token" autocomplete="off" required>
<div class="actions"><button type="submit">Sign in</button></div>
</form>`,
  );
}

/** The signed-in user's organizations; `created` names one just made with the form, to confirm it. */
export function organizationsPage(orgs: OrganizationRow[], created: string | null, chrome: Chrome): string {
  const made = created ? orgs.find((o) => o.name === created) : undefined;
  return page(
    'Organizations',
    html`<h1>Your organizations</h1>
${made ? html`<p class="notice" role="status">Organization ${made.name} created; you are its owner.</p>` : ''}
${orgs.length === 0 ? html`<p>You are not a member of any organization.</p>` : ''}
<ul>${orgs.map((o) => html`<li><a href="${billingPath(o)}">${o.name}: billing settings</a></li>`)}</ul>
<p><a class="button" href="${NEW_ORGANIZATION_PATH}">New organization</a></p>`,
    chrome,
  );
}

/** An error page; with `chrome`, the signed-in header stays (a 404 does not sign anyone out). */
export function errorPage(status: number, message: string, chrome?: Chrome): string {
  return page(
    'Error',
    html`<h1>${status === 404 ? 'Page not found' : 'Something went wrong'}</h1>
<p class="error" role="alert">${message}</p>
<p><a href="/app">Back to your organizations</a></p>`,
    chrome,
  );
}
