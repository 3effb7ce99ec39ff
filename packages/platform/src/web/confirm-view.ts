import {
  type FeatureSetRow,
  type OrganizationRow,
  type SubscriptionRow,
  TRIAL_IDENTIFIER,
  TRIAL_LENGTH_MS,
} from '../store/index.js';
import { billingPath } from './billing-view.js';
import { type Chrome, html, page, type SafeHtml } from './html.js';
import { featureTerms, numericTerms, price } from './plan-text.js';

export interface ConfirmView {
  org: OrganizationRow;
  subscription: SubscriptionRow;
  from: FeatureSetRow;
  to: FeatureSetRow;
  chrome: Chrome;
}

/**
 * The step before a plan change: every term that changes (price, users, runs, agents, the
 * seven limits, then the features), old value beside new, so nothing is lost by surprise.
 */
export function confirmPage(v: ConfirmView): string {
  const { org, from, to } = v;
  return page(
    `Change plan · ${org.name}`,
    html`<h1>Change plan for ${org.name}</h1>
<p>You are about to move <strong>${org.name}</strong> from <strong>${from.name}</strong> (${price(from)})
to <strong>${to.name}</strong> (${price(to)}). The current subscription ends now and the new one starts at once.${trialTerm(to)}</p>
${changesTable(v)}
${confirmForm(v)}`,
    v.chrome,
  );
}

/** A trial is for a while: say how long before it is chosen. */
function trialTerm(to: FeatureSetRow): string {
  return to.identifier === TRIAL_IDENTIFIER
    ? ` The trial lasts ${TRIAL_LENGTH_MS / (24 * 60 * 60 * 1000)} days; then the organization is on the Free plan.`
    : '';
}

function changesTable(v: ConfirmView): SafeHtml {
  const before = [...numericTerms(v.from, v.subscription), ...featureTerms(v.from)];
  const after = [...numericTerms(v.to), ...featureTerms(v.to)];
  const changes = before.flatMap((term, i) => {
    const next = after[i];
    return next && next.value !== term.value ? [{ label: term.label, from: term.value, to: next.value }] : [];
  });
  if (changes.length === 0) return html`<p>Nothing else changes.</p>`;
  return html`<div class="table-scroll" role="region" aria-labelledby="changes-caption" tabindex="0">
<table class="changes">
<caption id="changes-caption">What changes</caption>
<thead><tr><th scope="col">Term</th><th scope="col">Now (${v.from.name})</th><th scope="col">After (${v.to.name})</th></tr></thead>
<tbody>${changes.map((c) => html`<tr><th scope="row">${c.label}</th><td>${c.from}</td><td>${c.to}</td></tr>`)}</tbody>
</table>
</div>`;
}

/** The confirm button, or, for a plan sold by contract, the way to sales: the server would refuse the change. */
function confirmForm(v: ConfirmView): SafeHtml {
  const back = billingPath(v.org);
  if (!v.to.self_serve_billing) {
    return html`<p>The ${v.to.name} plan is arranged by contract: <strong>Contact sales</strong> to move to it.</p>
<div class="actions"><a href="${back}">Back to billing</a></div>`;
  }
  return html`<form method="post" action="${back}">
<input type="hidden" name="authenticity_token" value="${v.chrome.csrfToken}">
<input type="hidden" name="feature_set" value="${v.to.id}">
<div class="actions">
<button type="submit">Confirm change to ${v.to.name}</button>
<a href="${back}">Cancel</a>
</div>
</form>`;
}
