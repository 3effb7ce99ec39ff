import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_VERSION } from '../src/http/api-handler.js';
import { TestPlatform, type TestUser } from './testing.js';

// The client conventions go-tfe relies on (issue 23, point 11).
describe('ping and the API version header', () => {
  let p: TestPlatform;
  before(async () => {
    p = await TestPlatform.start();
  });
  after(() => p.stop());

  it('answers GET /ping with 204 and no token, and HEAD alike', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${p.baseUrl}/api/v2/ping`, { method });
      assert.equal(res.status, 204, method);
      assert.equal(res.headers.get('tfp-api-version'), API_VERSION);
      assert.equal(await res.text(), '');
    }
    const post = await fetch(`${p.baseUrl}/api/v2/ping`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
  });

  it('sends TFP-API-Version on successes and errors', async () => {
    for (const res of [
      await p.api('GET', '/feature-sets', { token: 'not-a-token' }),
      await p.api('GET', '/no-such-route'),
      await p.api('GET', '/account/details', { token: (await p.createUser()).token }),
    ]) {
      assert.match(res.headers.get('tfp-api-version') ?? '', /^2\.\d+$/);
    }
  });
});

describe('GET /_health', () => {
  it('is 200 while the database answers and 503 once it does not, without a token', async () => {
    const p = await TestPlatform.start();
    try {
      const up = await fetch(`${p.baseUrl}/_health`);
      assert.equal(up.status, 200);
      assert.deepEqual(await up.json(), { status: 'ok', edition: 'hosted' });
      await p.ctx.store.close();
      const down = await fetch(`${p.baseUrl}/_health`);
      assert.equal(down.status, 503);
      assert.equal((await down.json()).status, 'unavailable');
      assert.equal((await fetch(`${p.baseUrl}/_health`, { method: 'POST' })).status, 405);
    } finally {
      await new Promise((resolve) => p.server.close(resolve));
    }
  });
});

describe('rate limit', () => {
  let p: TestPlatform;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    p = await TestPlatform.start('hosted', { rateLimitPerSecond: 5 });
    // Setting up spends requests; a fresh window starts each test.
    alice = await p.createUser('alice');
    p.clock.advance(1000);
    bob = await p.createUser('bob');
  });
  after(() => p.stop());

  it('counts down X-RateLimit-Remaining and refuses the request past the limit with 429', async () => {
    p.clock.advance(1000 - (p.clock.now() % 1000) + 250);
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await p.api('GET', '/account/details', { token: alice.token });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '5');
      assert.equal(res.headers.get('x-ratelimit-reset'), '0.750');
      remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
    }
    assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);

    const refused = await p.api('GET', '/account/details', { token: alice.token });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    assert.deepEqual(refused.body.errors[0], {
      status: '429',
      title: 'Too many requests',
      detail: "You have exceeded the API's rate limit.",
      code: 'rate_limited',
    });

    // Another token has its own allowance.
    assert.equal((await p.api('GET', '/account/details', { token: bob.token })).status, 200);

    // The next window (on the injected clock) starts afresh.
    p.clock.advance(750);
    const again = await p.api('GET', '/account/details', { token: alice.token });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('x-ratelimit-remaining'), '4');
  });

  it('limits requests without a token by client address, ping included', async () => {
    p.clock.advance(1000 - (p.clock.now() % 1000));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await fetch(`${p.baseUrl}/api/v2/ping`)).status);
    assert.deepEqual(statuses, [204, 204, 204, 204, 204, 429]);
  });
});

describe('include and HEAD', () => {
  let p: TestPlatform;
  let owner: TestUser;
  before(async () => {
    p = await TestPlatform.start();
    owner = await p.createUser('owner');
    await p.createOrganization(owner.token, 'acme');
  });
  after(() => p.stop());

  it('answers an include the route cannot give with 400 naming the include parameter', async () => {
    for (const path of [
      '/organizations/acme?include=owners',
      '/organizations/acme/subscription?include=feature_set,billing_account',
      '/feature-sets?include=anything',
      '/account/details?include=organizations',
    ]) {
      const res = await p.api('GET', path, { token: owner.token });
      assert.equal(res.status, 400, path);
      assert.equal(res.body.errors[0].code, 'invalid_request');
      assert.equal(res.body.errors[0].source.parameter, 'include');
      assert.match(res.body.errors[0].detail, /include parameter/);
    }
  });

  it('includes what a route offers: the entitlement set of an organization, the feature set of a subscription', async () => {
    const org = await p.api('GET', '/organizations/acme?include=entitlement_set', { token: owner.token });
    assert.equal(org.status, 200);
    assert.equal(org.body.included[0].type, 'entitlement-sets');
    assert.equal(org.body.included[0].id, org.body.data.relationships['entitlement-set'].data.id);
    assert.equal(org.body.included[0].attributes['user-limit'], 5);
    assert.equal((await p.api('GET', '/organizations/acme', { token: owner.token })).body.included, undefined);
    const sub = await p.api('GET', '/organizations/acme/subscription?include=feature_set', { token: owner.token });
    assert.equal(sub.status, 200);
    assert.equal(sub.body.included[0].type, 'feature-sets');
  });

  it('answers HEAD on every GET route like GET, without a body', async () => {
    for (const path of ['/organizations/acme', '/organizations/acme/subscription', '/feature-sets', '/nope']) {
      const get = await fetch(`${p.baseUrl}/api/v2${path}`, { headers: { authorization: `Bearer ${owner.token}` } });
      const getBody = await get.arrayBuffer();
      const head = await fetch(`${p.baseUrl}/api/v2${path}`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${owner.token}` },
      });
      assert.equal(head.status, get.status, path);
      assert.equal(head.headers.get('content-type'), get.headers.get('content-type'));
      assert.equal(head.headers.get('content-length'), String(getBody.byteLength));
      assert.equal((await head.arrayBuffer()).byteLength, 0);
    }
    const unauthorized = await fetch(`${p.baseUrl}/api/v2/organizations/acme`, { method: 'HEAD' });
    assert.equal(unauthorized.status, 401);
  });
});
