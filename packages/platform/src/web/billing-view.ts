import { timestamp } from '../jsonapi/document.js';
import {
  ENTITLEMENT_COLUMNS,
  type FeatureSetRow,
  LIMIT_COLUMNS,
  type OrganizationRow,
  type SubscriptionRow,
} from '../store/index.js';
import { wireName } from '../subscriptions/entitlements.js';
import { type Chrome, html, page, type SafeHtml } from './html.js';
import { FEATURE_LABELS, LIMIT_LABELS, limitText, limitValue, price, readableDate } from './plan-text.js';

export const billingPath = (org: OrganizationRow): string => `/app/${encodeURIComponent(org.name)}/settings/billing`;

export interface BillingView {
  org: OrganizationRow;
  subscription: SubscriptionRow;
  current: FeatureSetRow;
  plans: FeatureSetRow[];
  /** The identifier of a plan just chosen, to confirm the change to the user. */
  changedTo: string | null;
  /** The clock's time, for the days left of a trial. */
  now: number;
  chrome: Chrome;
}

export function billingPage(v: BillingView): string {
  const notice =
    v.changedTo === v.current.identifier
      ? html`<p class="notice" role="status">Your plan is now ${v.current.name}.</p>`
      : '';
  const since = v.subscription.start_at;
  return page(
    `Billing · ${v.org.name}`,
    html`<h1>Billing settings for ${v.org.name}</h1>
${notice}
<section aria-labelledby="current-plan">
<h2 id="current-plan">Current plan: ${v.current.name}</h2>
<p>${v.current.description}.</p>
<dl class="facts">
<div><dt>Price</dt><dd>${price(v.current)}</dd></div>
<div><dt>Subscribed since</dt><dd><time datetime="${timestamp(since)}">${readableDate(since)}</time></dd></div>
${termEnd(v.subscription, v.now)}
<div><dt>Users</dt><dd>${limitText(v.subscription.contract_user_limit ?? v.current.user_limit)}</dd></div>
<div><dt>Concurrent runs</dt><dd>${v.subscription.runs_ceiling}</dd></div>
<div><dt>Self-hosted agents</dt><dd>${v.subscription.agents_ceiling}</dd></div>
</dl>
<table class="limits">
<caption>Limits of your plan</caption>
<thead><tr><th scope="col">Limit</th><th scope="col">Allowed</th></tr></thead>
<tbody>${LIMIT_COLUMNS.map(
      (c) =>
        html`<tr><th scope="row">${LIMIT_LABELS[c]}</th><td data-limit="${wireName(c)}">${limitValue(c, v.current, v.subscription)}</td></tr>`,
    )}</tbody>
</table>
</section>
<section aria-labelledby="plans">
<h2 id="plans">Plans</h2>
${comparisonTable(v)}
</section>`,
    v.chrome,
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** When a subscription with a term (a trial) ends, how many days are left, and what comes after. */
function termEnd(sub: SubscriptionRow, nowMs: number): SafeHtml | string {
  if (sub.end_at === null) return '';
  const days = Math.max(0, Math.ceil((sub.end_at - nowMs) / DAY_MS));
  const left = days === 1 ? '1 day left' : `${days} days left`;
  return html`<div><dt>Ends</dt><dd><time datetime="${timestamp(sub.end_at)}">${readableDate(sub.end_at)}</time> (${left}); then the Free plan</dd></div>`;
}

/**
 * Every plan the organization may choose, side by side: one column per plan. On a narrow screen
 * the table scrolls sideways inside its own (focusable, labelled) region, so the page does not.
 */
function comparisonTable(v: BillingView): SafeHtml {
  const cls = (fs: FeatureSetRow) => (fs.id === v.current.id ? 'current' : null);
  const yesNo = (fs: FeatureSetRow, on: boolean) =>
    html`<td class="${on ? 'yes' : 'no'} ${cls(fs)}">${on ? 'Included' : 'Not included'}</td>`;
  const row = (label: string, cell: (fs: FeatureSetRow) => SafeHtml) =>
    html`<tr><th scope="row">${label}</th>${v.plans.map(cell)}</tr>`;
  const text = (f: (fs: FeatureSetRow) => string | number) => (fs: FeatureSetRow) =>
    html`<td class="${cls(fs)}">${f(fs)}</td>`;
  // The caption sits above the scrolling region (inside it, it would be as wide as the table and
  // clipped on a phone), with a hint, on narrow screens only, that the table scrolls sideways.
  return html`<p class="table-caption" id="plans-caption">Plans compared; your current plan is marked</p>
<p class="scroll-hint" aria-hidden="true">Scroll the table sideways to see every plan.</p>
<div class="table-scroll" role="region" aria-labelledby="plans-caption" tabindex="0">
<table class="plans" aria-labelledby="plans-caption">
<thead><tr><th scope="col">Feature</th>${v.plans.map((fs) => html`<th scope="col" class="${cls(fs)}">${fs.name}${fs.id === v.current.id ? ' (current plan)' : ''}</th>`)}</tr></thead>
<tbody>
${row('Change', (fs) => html`<td class="${cls(fs)}">${choose(v, fs)}</td>`)}
${row('Price', text(price))}
${row(
  'Users',
  text((fs) => limitText(fs.user_limit)),
)}
${row(
  'Concurrent runs',
  text((fs) => fs.default_runs_ceiling),
)}
${row(
  'Self-hosted agents',
  text((fs) => fs.default_agents_ceiling),
)}
${ENTITLEMENT_COLUMNS.map((c) => row(FEATURE_LABELS[c], (fs) => yesNo(fs, fs[c] === 1)))}
</tbody>
</table>
</div>`;
}

function choose(v: BillingView, fs: FeatureSetRow): SafeHtml {
  if (fs.id === v.current.id) return html`Current plan`;
  if (!fs.self_serve_billing) return html`Contact sales`;
  return html`<form method="get" action="${billingPath(v.org)}/confirm">
<input type="hidden" name="feature_set" value="${fs.id}">
<button type="submit">Choose ${fs.name}</button>
</form>`;
}
