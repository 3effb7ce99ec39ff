import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { TestPlatform, type TestUser, WebClient } from './testing.js';

const TEAM = 'fs-g5jeyzSkqsK5p3CT';
const GOVERNANCE = 'fs-EP5Niczf2xKUFDXt';
const BUSINESS = 'fs-4ec3b3RVJWsBkst3';
const TRIAL = 'fs-T9BCyZi3KJyWHebk';
const BILLING = '/app/acme/settings/billing';

describe('billing settings page', () => {
  let p: TestPlatform;
  let owner: TestUser;
  let web: WebClient;

  before(async () => {
    p = await TestPlatform.start();
    owner = await p.createUser('owner');
    await p.createOrganization(owner.token, 'acme');
  });
  beforeEach(() => {
    web = new WebClient(p.baseUrl);
  });
  after(() => p.stop());

  /** Chooses a plan and confirms it, as the page's two forms do. */
  async function changePlan(client: WebClient, featureSetId: string) {
    const confirm = await client.get(`${BILLING}/confirm?feature_set=${featureSetId}`);
    assert.equal(confirm.status, 200, confirm.html);
    return client.post(BILLING, { authenticity_token: WebClient.csrfToken(confirm.html), feature_set: featureSetId });
  }

  it('sends a signed-out visitor to sign in and back to the page', async () => {
    const res = await web.get(BILLING);
    assert.equal(res.status, 303);
    assert.equal(res.location, `/app/session/new?return_to=${encodeURIComponent(BILLING)}`);
    const signedIn = await web.signIn(owner.token, BILLING);
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.location, BILLING);
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('ward_session='));
    assert.match(cookie ?? '', /HttpOnly/);
    assert.match(cookie ?? '', /SameSite=Lax/);
    const page = await web.get(BILLING);
    assert.equal(page.status, 200);
    assert.match(page.html, /Current plan: Free/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  });

  it('refuses a bad token, an organization token, and a sign-in form without its CSRF token', async () => {
    assert.equal((await web.signIn('not-a-token')).status, 401);
    const orgToken = await p.api('POST', '/organizations/acme/authentication-token', { token: owner.token });
    assert.equal((await web.signIn(orgToken.body.data.attributes.token)).status, 401);
    const forged = await new WebClient(p.baseUrl).post('/app/session', { token: owner.token, authenticity_token: 'x' });
    assert.equal(forged.status, 403);
    assert.ok(!forged.headers.getSetCookie().some((c) => c.startsWith('ward_session=')));
  });

  it('never redirects off-site, nor out of /app, after sign-in', async () => {
    const targets = ['https://evil.example/', '//evil.example/app', '/app/../../x', '/app/../x', '/app/%2e%2e/x'];
    for (const target of [...targets, '/elsewhere']) {
      const res = await new WebClient(p.baseUrl).signIn(owner.token, target);
      assert.equal(res.status, 303);
      // Where a browser would go: it resolves dot segments, encoded ones too (issue 23, point 12).
      const landed = new URL(res.location ?? '', p.baseUrl);
      assert.equal(landed.origin, p.baseUrl, `${target} -> ${res.location}`);
      assert.match(landed.pathname, /^\/app(\/|$)/, `${target} -> ${res.location}`);
    }
  });

  it('shows a contract plan\'s confirm page with "Contact sales" and no Confirm button', async () => {
    await web.signIn(owner.token);
    const confirm = await web.get(`${BILLING}/confirm?feature_set=${BUSINESS}`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.html, /Contact sales/);
    assert.doesNotMatch(confirm.html, /<button[^>]*>Confirm/);
  });

  it('shows the current plan, its limits and the other plans side by side', async () => {
    await web.signIn(owner.token);
    const { html } = await web.get(BILLING);
    // Issue 35: Free includes neither run tasks nor policies, so their limits say so, as the comparison does.
    assert.match(html, /<td data-limit="policy-limit">Not included<\/td>/);
    assert.match(html, /<td data-limit="run-task-limit">Not included<\/td>/);
    assert.doesNotMatch(html, /data-limit="[^"]+">\d/);
    for (const name of ['Team', 'Team &amp; Governance', 'Business', 'Trial'])
      assert.match(html, new RegExp(`<th scope="col"[^>]*>${name}`));
    assert.match(html, /Choose Team<\/button>/);
    assert.doesNotMatch(html, /Choose Business/, 'contract plans cannot be chosen here');
    assert.match(html, /Contact sales/);
  });

  it('refuses a plan change whose form lacks the session CSRF token, and changes nothing', async () => {
    await web.signIn(owner.token);
    const before = await p.api('GET', '/organizations/acme/subscription', { token: owner.token });
    for (const token of [undefined, 'wrong', '']) {
      const form: Record<string, string> = { feature_set: TEAM };
      if (token !== undefined) form.authenticity_token = token;
      assert.equal((await web.post(BILLING, form)).status, 403);
    }
    // A CSRF token from another session does not work either.
    const other = new WebClient(p.baseUrl);
    await other.signIn(owner.token);
    const otherCsrf = WebClient.csrfToken((await other.get(`${BILLING}/confirm?feature_set=${TEAM}`)).html);
    assert.equal((await web.post(BILLING, { feature_set: TEAM, authenticity_token: otherCsrf })).status, 403);
    const afterwards = await p.api('GET', '/organizations/acme/subscription', { token: owner.token });
    assert.deepEqual(afterwards.body, before.body);
  });

  it('lets only owners in: a plain member gets 403, a stranger 404', async () => {
    const member = await p.createUser('member');
    await p.addMember(owner.token, 'acme', member);
    await web.signIn(member.token);
    assert.equal((await web.get(BILLING)).status, 403);
    assert.equal((await web.get(`${BILLING}/confirm?feature_set=${TEAM}`)).status, 403);
    const stranger = await p.createUser('stranger');
    const s = new WebClient(p.baseUrl);
    await s.signIn(stranger.token);
    assert.equal((await s.get(BILLING)).status, 404);
    assert.equal((await s.get('/app/nope/settings/billing')).status, 404);
  });

  it('ends the subscription and starts the chosen one; the API shows it at once', async () => {
    await web.signIn(owner.token);
    const old = (await p.api('GET', '/organizations/acme/subscription', { token: owner.token })).body.data;
    p.clock.advance(90_000);
    const res = await changePlan(web, GOVERNANCE);
    assert.equal(res.status, 303);
    assert.equal(res.location, `${BILLING}?changed=governance`);
    assert.match((await web.get(res.location ?? '')).html, /Your plan is now Team &amp; Governance/);

    const now = await p.api('GET', '/organizations/acme/subscription', { token: owner.token });
    assert.notEqual(now.body.data.id, old.id);
    assert.equal(now.body.data.attributes['is-active'], true);
    assert.equal(now.body.data.attributes['start-at'], '2024-03-01T12:01:30.123Z');
    assert.equal(now.body.data.attributes['runs-ceiling'], 3);
    assert.equal(now.body.data.attributes['is-public-free-tier'], false);
    assert.equal(now.body.data.relationships['feature-set'].data.id, GOVERNANCE);
    assert.equal(now.body.included[0].attributes['is-current'], true);

    const ended = await p.api('GET', `/subscriptions/${old.id}`, { token: owner.token });
    assert.equal(ended.body.data.attributes['is-active'], false);
    assert.equal(ended.body.data.attributes['end-at'], '2024-03-01T12:01:30.123Z');
    assert.equal(ended.body.included[0].attributes['is-current'], false, 'free is no longer the current plan');

    const entitlements = (await p.api('GET', '/organizations/acme/entitlement-set', { token: owner.token })).body.data;
    assert.equal(entitlements.attributes['policy-engine'], true);
    assert.equal(entitlements.attributes['policy-enforcement'], true);
    assert.equal(entitlements.attributes['cost-estimation'], true);
    assert.equal(entitlements.attributes.teams, true);
    assert.equal(entitlements.attributes.sso, false);
    assert.equal(entitlements.attributes['policy-limit'], null);
    assert.equal(entitlements.attributes['user-limit'], null);

    const list = (await p.api('GET', '/organizations/acme/feature-sets', { token: owner.token })).body.data;
    const current = list.filter((fs: { attributes: { 'is-current': boolean } }) => fs.attributes['is-current']);
    assert.deepEqual(
      current.map((fs: { id: string }) => fs.id),
      [GOVERNANCE],
    );
  });

  it('refuses the current plan, contract plans and unknown plans without changing anything', async () => {
    await web.signIn(owner.token);
    const csrf = WebClient.csrfToken((await web.get(`${BILLING}/confirm?feature_set=${TEAM}`)).html);
    const before = (await p.api('GET', '/organizations/acme/subscription', { token: owner.token })).body.data.id;
    const current = (await p.api('GET', '/organizations/acme/subscription', { token: owner.token })).body.data
      .relationships['feature-set'].data.id;
    for (const fs of [current, BUSINESS, 'fs-doesnotexist']) {
      assert.equal((await web.post(BILLING, { authenticity_token: csrf, feature_set: fs })).status, 422, fs);
    }
    const after = (await p.api('GET', '/organizations/acme/subscription', { token: owner.token })).body.data.id;
    assert.equal(after, before);
  });

  it('offers the trial only until the organization has had it', async () => {
    await web.signIn(owner.token);
    assert.equal((await changePlan(web, TRIAL)).status, 303);
    const onTrial = await p.api('GET', '/organizations/acme/subscription', { token: owner.token });
    assert.equal(onTrial.body.data.attributes['is-self-serve-trial'], true);
    assert.equal((await changePlan(web, TEAM)).status, 303);
    const list = (await p.api('GET', '/organizations/acme/feature-sets', { token: owner.token })).body.data;
    assert.ok(!list.some((fs: { id: string }) => fs.id === TRIAL));
    assert.equal((await web.get(`${BILLING}/confirm?feature_set=${TRIAL}`)).status, 422);
    // The global catalogue still lists it.
    const global = (await p.api('GET', '/feature-sets', { token: owner.token })).body.data;
    assert.ok(global.some((fs: { id: string }) => fs.id === TRIAL));
  });

  it('signs out, after which the page asks to sign in again', async () => {
    await web.signIn(owner.token);
    const home = await web.get('/app');
    assert.match(home.html, /acme: billing settings/);
    const out = await web.post('/app/session/delete', { authenticity_token: WebClient.csrfToken(home.html) });
    assert.equal(out.status, 303);
    assert.equal((await web.get(BILLING)).status, 303);
  });

  it('expires a session after 12 hours by the clock', async () => {
    await web.signIn(owner.token);
    assert.equal((await web.get(BILLING)).status, 200);
    p.clock.advance(12 * 60 * 60 * 1000);
    assert.equal((await web.get(BILLING)).status, 303);
  });
});

describe('a trial', () => {
  const TRIAL_BILLING = '/app/trialco/settings/billing';
  const DAY = 24 * 60 * 60 * 1000;

  it('lasts 30 days, shows its end on the billing page, then the organization is on the free plan', async () => {
    const p = await TestPlatform.start();
    try {
      const owner = await p.createUser('owner');
      await p.createOrganization(owner.token, 'trialco');
      const web = new WebClient(p.baseUrl);
      await web.signIn(owner.token);
      const confirm = await web.get(`${TRIAL_BILLING}/confirm?feature_set=${TRIAL}`);
      assert.match(confirm.html, /The trial lasts 30 days; then the organization is on the Free plan\./);
      const csrf = WebClient.csrfToken(confirm.html);
      assert.equal((await web.post(TRIAL_BILLING, { authenticity_token: csrf, feature_set: TRIAL })).status, 303);

      const trial = (await p.api('GET', '/organizations/trialco/subscription', { token: owner.token })).body.data;
      assert.equal(trial.attributes['is-self-serve-trial'], true);
      assert.equal(trial.attributes['start-at'], '2024-03-01T12:00:00.123Z');
      assert.equal(trial.attributes['end-at'], '2024-03-31T12:00:00.123Z');
      assert.match(
        (await web.get(TRIAL_BILLING)).html,
        /<dt>Ends<\/dt><dd><time datetime="2024-03-31T12:00:00.123Z">[^<]+<\/time> \(30 days left\); then the Free plan/,
      );

      p.clock.advance(29 * DAY + 1);
      await web.signIn(owner.token);
      assert.match((await web.get(TRIAL_BILLING)).html, /\(1 day left\)/);
      const still = (await p.api('GET', '/organizations/trialco/subscription', { token: owner.token })).body.data;
      assert.equal(still.id, trial.id, 'a trial with time left is still in force');

      p.clock.advance(DAY);
      const after = (await p.api('GET', '/organizations/trialco/subscription', { token: owner.token })).body;
      assert.notEqual(after.data.id, trial.id);
      assert.equal(after.data.attributes['is-public-free-tier'], true);
      assert.equal(after.data.attributes['is-self-serve-trial'], false);
      assert.equal(
        after.data.attributes['start-at'],
        '2024-03-31T12:00:00.123Z',
        'free from the moment the trial ended',
      );
      assert.equal(after.data.attributes['end-at'], null);
      const ended = (await p.api('GET', `/subscriptions/${trial.id}`, { token: owner.token })).body.data;
      assert.equal(ended.attributes['is-active'], false);
      assert.equal(ended.attributes['end-at'], '2024-03-31T12:00:00.123Z');
      const entitlements = (await p.api('GET', '/organizations/trialco/entitlement-set', { token: owner.token })).body;
      assert.equal(entitlements.data.attributes['policy-enforcement'], false, 'the trial features are gone');

      // Used once, the trial is not offered again; the page shows the free plan without an end.
      await web.signIn(owner.token);
      const page = (await web.get(TRIAL_BILLING)).html;
      assert.match(page, /Current plan: Free/);
      assert.doesNotMatch(page, /<dt>Ends<\/dt>/);
      const offered = (await p.api('GET', '/organizations/trialco/feature-sets', { token: owner.token })).body.data;
      assert.ok(!offered.some((fs: { id: string }) => fs.id === TRIAL));
    } finally {
      await p.stop();
    }
  });
});

describe('billing settings page (self-hosted)', () => {
  it('does not exist', async () => {
    const p = await TestPlatform.start('self-hosted');
    try {
      const owner = await p.createUser('owner');
      await p.createOrganization(owner.token, 'acme');
      const web = new WebClient(p.baseUrl);
      assert.equal((await web.signIn(owner.token)).status, 303);
      assert.equal((await web.get(BILLING)).status, 404);
    } finally {
      await p.stop();
    }
  });
});
