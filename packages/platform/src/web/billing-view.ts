import { timestamp } from '../jsonapi/document.js';
import {
  ENTITLEMENT_COLUMNS,
  type FeatureSetRow,
  LIMIT_COLUMNS,
  type OrganizationRow,
  type SubscriptionRow,
} from '../store/index.js';
import { wireName } from '../subscriptions/entitlements.js';
import { html, page, type SafeHtml } from './html.js';

const FEATURE_LABELS: Record<(typeof ENTITLEMENT_COLUMNS)[number], string> = {
  cost_estimation: 'Cost estimation',
  policy_engine: 'Policy enforcement',
  run_tasks: 'Run tasks',
  teams: 'Teams',
  audit_logging: 'Audit logging',
  sso: 'Single sign-on',
  private_networking: 'Private networking and agents',
};

const LIMIT_LABELS: Record<(typeof LIMIT_COLUMNS)[number], string> = {
  run_task_limit: 'Run tasks',
  run_task_workspace_limit: 'Workspaces per run task',
  run_task_mandatory_enforcement_limit: 'Mandatory run tasks',
  policy_set_limit: 'Policy sets',
  policy_limit: 'Policies',
  policy_mandatory_enforcement_limit: 'Mandatory policies',
  versioned_policy_set_limit: 'Versioned policy sets',
};

function price(fs: FeatureSetRow): string {
  if (!fs.self_serve_billing) return 'By contract';
  return fs.cost === 0 ? 'Free' : `US$${(fs.cost / 100).toFixed(2)} per month`;
}

const limitText = (n: number | null) => (n === null ? 'Unlimited' : String(n));
const billingPath = (org: OrganizationRow) => `/app/${encodeURIComponent(org.name)}/settings/billing`;

export interface BillingView {
  org: OrganizationRow;
  subscription: SubscriptionRow;
  current: FeatureSetRow;
  plans: FeatureSetRow[];
  /** The identifier of a plan just chosen, to confirm the change to the user. */
  changedTo: string | null;
}

export function billingPage(v: BillingView): string {
  const notice =
    v.changedTo === v.current.identifier
      ? html`<p class="notice" role="status">Your plan is now ${v.current.name}.</p>`
      : '';
  return page(
    `Billing · ${v.org.name}`,
    html`<h1>Billing settings for ${v.org.name}</h1>
${notice}
<section aria-labelledby="current-plan">
<h2 id="current-plan">Current plan: ${v.current.name}</h2>
<p>${price(v.current)}. ${v.current.description}.</p>
<dl>
<dt>Subscribed since</dt><dd><time datetime="${timestamp(v.subscription.start_at)}">${timestamp(v.subscription.start_at)}</time></dd>
<dt>Concurrent runs</dt><dd>${v.subscription.runs_ceiling}</dd>
<dt>Self-hosted agents</dt><dd>${v.subscription.agents_ceiling}</dd>
<dt>Users</dt><dd>${limitText(v.subscription.contract_user_limit ?? v.current.user_limit)}</dd>
</dl>
<table>
<caption>Limits of your plan</caption>
<thead><tr><th scope="col">Limit</th><th scope="col">Allowed</th></tr></thead>
<tbody>${LIMIT_COLUMNS.map(
      (c) =>
        html`<tr><th scope="row">${LIMIT_LABELS[c]}</th><td data-limit="${wireName(c)}">${limitText(v.subscription[c] ?? v.current[c])}</td></tr>`,
    )}</tbody>
</table>
</section>
<section aria-labelledby="plans">
<h2 id="plans">Plans</h2>
${comparisonTable(v)}
</section>`,
  );
}

/** Every plan the organization may choose, side by side: one column per plan. */
function comparisonTable(v: BillingView): SafeHtml {
  const cls = (fs: FeatureSetRow) => (fs.id === v.current.id ? 'current' : null);
  const yesNo = (fs: FeatureSetRow, on: boolean) =>
    html`<td class="${on ? 'yes' : 'no'} ${cls(fs)}">${on ? 'Included' : 'Not included'}</td>`;
  return html`<table>
<caption>Plans compared; your current plan is marked</caption>
<thead><tr><th scope="col">Feature</th>${v.plans.map((fs) => html`<th scope="col" class="${cls(fs)}">${fs.name}${fs.id === v.current.id ? ' (current plan)' : ''}</th>`)}</tr></thead>
<tbody>
<tr><th scope="row">Price</th>${v.plans.map((fs) => html`<td class="${cls(fs)}">${price(fs)}</td>`)}</tr>
<tr><th scope="row">Users</th>${v.plans.map((fs) => html`<td class="${cls(fs)}">${limitText(fs.user_limit)}</td>`)}</tr>
<tr><th scope="row">Concurrent runs</th>${v.plans.map((fs) => html`<td class="${cls(fs)}">${fs.default_runs_ceiling}</td>`)}</tr>
${ENTITLEMENT_COLUMNS.map((c) => html`<tr><th scope="row">${FEATURE_LABELS[c]}</th>${v.plans.map((fs) => yesNo(fs, fs[c] === 1))}</tr>`)}
<tr><th scope="row">Change</th>${v.plans.map((fs) => html`<td class="${cls(fs)}">${choose(v, fs)}</td>`)}</tr>
</tbody>
</table>`;
}

function choose(v: BillingView, fs: FeatureSetRow): SafeHtml {
  if (fs.id === v.current.id) return html`Current plan`;
  if (!fs.self_serve_billing) return html`Contact sales`;
  return html`<form method="get" action="${billingPath(v.org)}/confirm">
<input type="hidden" name="feature_set" value="${fs.id}">
<button type="submit">Choose ${fs.name}</button>
</form>`;
}

export function confirmPage(org: OrganizationRow, from: FeatureSetRow, to: FeatureSetRow, csrfToken: string): string {
  const gained = ENTITLEMENT_COLUMNS.filter((c) => to[c] === 1 && from[c] !== 1).map((c) => FEATURE_LABELS[c]);
  const lost = ENTITLEMENT_COLUMNS.filter((c) => from[c] === 1 && to[c] !== 1).map((c) => FEATURE_LABELS[c]);
  return page(
    `Change plan · ${org.name}`,
    html`<h1>Change plan for ${org.name}</h1>
<p>You are about to move <strong>${org.name}</strong> from <strong>${from.name}</strong> (${price(from)})
to <strong>${to.name}</strong> (${price(to)}). The current subscription ends now and the new one starts at once.</p>
${gained.length ? html`<h2>You gain</h2><ul>${gained.map((g) => html`<li>${g}</li>`)}</ul>` : ''}
${lost.length ? html`<h2>You lose</h2><ul>${lost.map((l) => html`<li>${l}</li>`)}</ul>` : ''}
${confirmForm(org, to, csrfToken)}`,
  );
}

/** The confirm button, or, for a plan sold by contract, the way to sales: the server would refuse the change. */
function confirmForm(org: OrganizationRow, to: FeatureSetRow, csrfToken: string): SafeHtml {
  if (!to.self_serve_billing) {
    return html`<p>The ${to.name} plan is arranged by contract: <strong>Contact sales</strong> to move to it.</p>
<div class="actions"><a href="${billingPath(org)}">Back to billing</a></div>`;
  }
  return html`<form method="post" action="${billingPath(org)}">
<input type="hidden" name="authenticity_token" value="${csrfToken}">
<input type="hidden" name="feature_set" value="${to.id}">
<div class="actions">
<button type="submit">Confirm change to ${to.name}</button>
<a href="${billingPath(org)}">Cancel</a>
</div>
</form>`;
}

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

export function organizationsPage(orgs: OrganizationRow[], csrfToken: string): string {
  return page(
    'Organizations',
    html`<h1>Your organizations</h1>
${orgs.length === 0 ? html`<p>You are not a member of any organization.</p>` : ''}
<ul>${orgs.map((o) => html`<li><a href="${billingPath(o)}">${o.name}: billing settings</a></li>`)}</ul>
<form method="post" action="/app/session/delete">
<input type="hidden" name="authenticity_token" value="${csrfToken}">
<button type="submit" class="secondary">Sign out</button>
</form>`,
  );
}

export function errorPage(status: number, message: string): string {
  return page(
    'Error',
    html`<h1>${status === 404 ? 'Page not found' : 'Something went wrong'}</h1>
<p class="error" role="alert">${message}</p>
<p><a href="/app">Back to your organizations</a></p>`,
  );
}
