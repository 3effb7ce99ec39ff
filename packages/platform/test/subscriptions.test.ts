import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, JSONAPI, TestPlatform, type TestUser } from './testing.js';

const NOT_FOUND = { errors: [{ status: '404', title: 'not found' }] };
const UNAUTHORIZED = { errors: [{ status: '401', title: 'unauthorized' }] };
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('subscriptions API (hosted)', () => {
  let p: TestPlatform;
  let owner: TestUser;
  let stranger: TestUser;
  let subId: string;

  before(async () => {
    p = await TestPlatform.start();
    owner = await p.createUser('owner');
    stranger = await p.createUser('stranger');
    await p.createOrganization(owner.token, 'acme');
    await p.createOrganization(stranger.token, 'other');
    subId = (await p.api('GET', '/organizations/acme/subscription', { token: owner.token })).body.data.id;
  });
  after(() => p.stop());

  it('shows a new organization on the free plan with every attribute, relationship and the feature set', async () => {
    const res = await p.api('GET', '/organizations/acme/subscription', { token: owner.token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), JSONAPI);
    const { data, included } = res.body;
    assert.match(data.id, /^sub-[0-9A-Za-z]{16}$/);
    assert.equal(data.type, 'subscriptions');
    assert.deepEqual(data.attributes, {
      'start-at': '2024-03-01T12:00:00.123Z',
      'end-at': null,
      'is-active': true,
      'runs-ceiling': 1,
      'agents-ceiling': 0,
      'contract-start-at': null,
      'contract-user-limit': null,
      'contract-apply-limit': null,
      'run-task-limit': null,
      'run-task-workspace-limit': null,
      'run-task-mandatory-enforcement-limit': null,
      'policy-set-limit': null,
      'policy-limit': null,
      'policy-mandatory-enforcement-limit': null,
      'versioned-policy-set-limit': null,
      'is-public-free-tier': true,
      'is-self-serve-trial': false,
    });
    assert.deepEqual(data.relationships, {
      organization: { data: { id: 'acme', type: 'organizations' } },
      'billing-account': { data: null },
      'feature-set': { data: { id: 'fs-EvCGYfpx9CVRzteA', type: 'feature-sets' } },
    });
    assert.deepEqual(data.links, { self: `/api/v2/subscriptions/${data.id}` });
    assert.equal(included.length, 1);
    const fs = included[0];
    assert.equal(fs.id, 'fs-EvCGYfpx9CVRzteA');
    assert.equal(fs.type, 'feature-sets');
    assert.equal(fs.attributes.identifier, 'free');
    assert.equal(fs.attributes['is-current'], true);
    for (const name of ['name', 'identifier', 'description', 'comparison-description']) {
      assert.equal(typeof fs.attributes[name], 'string', name);
    }
    for (const name of [
      'cost-estimation',
      'policy-engine',
      'run-tasks',
      'teams',
      'audit-logging',
      'sso',
      'private-networking',
    ]) {
      assert.equal(fs.attributes[name], false, name);
    }
    assert.equal(fs.attributes['policy-enforcement'], fs.attributes['policy-engine']);
    assert.equal(fs.attributes.sentinel, fs.attributes['policy-engine']);
    assert.equal(fs.attributes['user-limit'], 5);
    assert.equal(fs.attributes['policy-limit'], 5);
    assert.match(data.attributes['start-at'], ISO_MS);
  });

  it('shows the same document by subscription id', async () => {
    const byOrg = await p.api('GET', '/organizations/acme/subscription', { token: owner.token });
    const byId = await p.api('GET', `/subscriptions/${subId}`, { token: owner.token });
    assert.equal(byId.status, 200);
    assert.equal(byId.headers.get('content-type'), JSONAPI);
    assert.deepEqual(byId.body, byOrg.body);
  });

  it('answers 401 to a missing, malformed, unknown or expired token', async () => {
    const headerSets: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer nope' },
      { authorization: 'Bearer' },
    ];
    for (const headers of headerSets) {
      const res = await fetch(`${p.baseUrl}/api/v2/organizations/acme/subscription`, { headers });
      assert.equal(res.status, 401, JSON.stringify(headers));
      assert.equal(res.headers.get('content-type'), JSONAPI);
      assert.deepEqual(await res.json(), UNAUTHORIZED);
    }
    const token = await p.api('POST', `/users/${owner.id}/authentication-tokens`, {
      token: owner.token,
      body: { data: { type: 'authentication-tokens', attributes: { 'expired-at': '2024-03-01T13:00:00.000Z' } } },
    });
    const short = token.body.data.attributes.token;
    assert.equal((await p.api('GET', `/subscriptions/${subId}`, { token: short })).status, 200);
    p.clock.advance(60 * 60 * 1000);
    const expired = await p.api('GET', `/subscriptions/${subId}`, { token: short });
    assert.equal(expired.status, 401);
    assert.deepEqual(expired.body, UNAUTHORIZED);
  });

  it('answers the same 404 for an unknown organization, an unknown id and an organization the token cannot see', async () => {
    const cases = [
      ['/organizations/nope/subscription', owner.token],
      ['/subscriptions/sub-AAAAAAAAAAAAAAAA', owner.token],
      ['/organizations/acme/subscription', stranger.token],
      [`/subscriptions/${subId}`, stranger.token],
    ] as const;
    for (const [path, token] of cases) {
      const res = await p.api('GET', path, { token });
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get('content-type'), JSONAPI);
      assert.deepEqual(res.body, NOT_FOUND);
    }
  });

  it('is read-only: other methods are 405 with a JSON:API error, with or without a token', async () => {
    for (const path of ['/organizations/acme/subscription', `/subscriptions/${subId}`]) {
      for (const method of ['PATCH', 'POST', 'DELETE', 'PUT']) {
        for (const token of [owner.token, undefined]) {
          const res = await p.api(method, path, { token, body: { data: { type: 'subscriptions' } } });
          assert.equal(res.status, 405, `${method} ${path}`);
          assert.equal(res.headers.get('content-type'), JSONAPI);
          assert.equal(res.headers.get('allow'), 'GET');
          assert.equal(res.body.errors[0].status, '405');
          assert.equal(res.body.errors[0].code, 'method_not_allowed');
        }
      }
    }
    const still = await p.api('GET', `/subscriptions/${subId}`, { token: owner.token });
    assert.equal(still.body.data.attributes['is-active'], true);
  });

  it('lets a plain member and the organization token read it, and nobody else', async () => {
    const member = await p.createUser('member');
    await p.addMember(owner.token, 'acme', member);
    assert.equal((await p.api('GET', '/organizations/acme/subscription', { token: member.token })).status, 200);

    const orgToken = await p.api('POST', '/organizations/acme/authentication-token', { token: owner.token });
    const acmeToken = orgToken.body.data.attributes.token;
    assert.equal((await p.api('GET', '/organizations/acme/subscription', { token: acmeToken })).status, 200);
    assert.equal((await p.api('GET', `/subscriptions/${subId}`, { token: acmeToken })).status, 200);
    assert.deepEqual((await p.api('GET', '/organizations/other/subscription', { token: acmeToken })).body, NOT_FOUND);
    // The admin is a site administrator, but not a member: still 404.
    assert.equal((await p.api('GET', '/organizations/acme/subscription', { token: ADMIN_TOKEN })).status, 404);
  });

  it('matches organization names case-insensitively', async () => {
    const res = await p.api('GET', '/organizations/ACME/subscription', { token: owner.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.relationships.organization.data.id, 'acme');
  });
});

describe('subscriptions API (self-hosted)', () => {
  let p: TestPlatform;
  let owner: TestUser;

  before(async () => {
    p = await TestPlatform.start('self-hosted');
    owner = await p.createUser('owner');
    await p.createOrganization(owner.token, 'acme');
  });
  after(() => p.stop());

  it('has no subscription or feature-set endpoints: every method is a plain 404', async () => {
    const org = await p.ctx.store.organizations.byName('acme');
    const sub = await p.ctx.store.subscriptions.active(org?.id ?? '');
    assert.ok(sub, 'the organization still has its internal subscription');
    const paths = [
      '/organizations/acme/subscription',
      `/subscriptions/${sub.id}`,
      '/feature-sets',
      '/organizations/acme/feature-sets',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const res = await p.api(method, path, { token: owner.token });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.deepEqual(res.body, NOT_FOUND);
      }
    }
  });

  it('reports a licensed entitlement set: every feature, no limits', async () => {
    const res = await p.api('GET', '/organizations/acme/entitlement-set', { token: owner.token });
    assert.equal(res.status, 200);
    const a = res.body.data.attributes;
    for (const name of [
      'policy-engine',
      'policy-enforcement',
      'sentinel',
      'teams',
      'sso',
      'audit-logging',
      'run-tasks',
      'agents',
    ]) {
      assert.equal(a[name], true, name);
    }
    assert.equal(a['policy-limit'], null);
    assert.equal(a['user-limit'], null);
    assert.equal(a['self-serve-billing'], false);
  });

  it('leaves the organization resource without a subscription relationship', async () => {
    const res = await p.api('GET', '/organizations/acme', { token: owner.token });
    assert.equal(res.body.data.relationships.subscription, undefined);
    assert.ok(res.body.data.relationships['entitlement-set']);
  });
});
