import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TestPlatform, type TestUser } from './testing.js';

const LIMITS = [
  'run-task-limit',
  'run-task-workspace-limit',
  'run-task-mandatory-enforcement-limit',
  'policy-set-limit',
  'policy-limit',
  'policy-mandatory-enforcement-limit',
  'versioned-policy-set-limit',
];
const q = (number: number | string, size: number | string) =>
  `?page%5Bnumber%5D=${encodeURIComponent(String(number))}&page%5Bsize%5D=${encodeURIComponent(String(size))}`;

describe('feature sets', () => {
  let p: TestPlatform;
  let owner: TestUser;

  before(async () => {
    p = await TestPlatform.start();
    owner = await p.createUser('owner');
    await p.createOrganization(owner.token, 'acme');
  });
  after(() => p.stop());

  it('lists the whole catalogue on one page by default, with meta.pagination and links', async () => {
    const res = await p.api('GET', '/feature-sets', { token: owner.token });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((fs: { attributes: { identifier: string } }) => fs.attributes.identifier),
      ['free', 'team', 'governance', 'business', 'trial'],
    );
    assert.deepEqual(res.body.meta.pagination, {
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': null,
      'total-pages': 1,
      'total-count': 5,
    });
    assert.equal(res.body.links.self, `/api/v2/feature-sets${q(1, 20)}`);
    assert.equal(res.body.links.prev, null);
    assert.equal(res.body.links.next, null);
    for (const fs of res.body.data) {
      assert.match(fs.id, /^fs-[0-9A-Za-z]{16}$/);
      for (const name of LIMITS) assert.ok(name in fs.attributes, `${fs.attributes.identifier} lacks ${name}`);
    }
  });

  it('shows the seven free-tier limits null in the global list, numbers in the organization list (issue 23)', async () => {
    const global = await p.api('GET', '/feature-sets', { token: owner.token });
    const scoped = await p.api('GET', '/organizations/acme/feature-sets', { token: owner.token });
    for (const fs of global.body.data) {
      assert.deepEqual(
        LIMITS.map((n) => fs.attributes[n]),
        LIMITS.map(() => null),
        fs.attributes.identifier,
      );
      // Every other attribute reads the same in both lists (is-current aside: it means the org's plan there).
      const other = scoped.body.data.find((s: { id: string }) => s.id === fs.id);
      if (!other) continue;
      assert.deepEqual(Object.keys(fs.attributes).sort(), Object.keys(other.attributes).sort());
      for (const [name, value] of Object.entries(fs.attributes)) {
        if (!LIMITS.includes(name) && name !== 'is-current') assert.deepEqual(other.attributes[name], value, name);
      }
    }
    const free = scoped.body.data.find(
      (fs: { attributes: { identifier: string } }) => fs.attributes.identifier === 'free',
    );
    assert.deepEqual(
      LIMITS.map((n) => free.attributes[n]),
      [1, 10, 1, 1, 5, 1, 0],
    );
  });

  it('pages through with page[number] and page[size], null links at the edges', async () => {
    const first = await p.api('GET', `/feature-sets${q(1, 2)}`, { token: owner.token });
    assert.equal(first.body.data.length, 2);
    assert.deepEqual(first.body.meta.pagination, {
      'current-page': 1,
      'page-size': 2,
      'prev-page': null,
      'next-page': 2,
      'total-pages': 3,
      'total-count': 5,
    });
    assert.equal(first.body.links.prev, null);
    assert.equal(first.body.links.next, `/api/v2/feature-sets${q(2, 2)}`);
    assert.equal(first.body.links.last, `/api/v2/feature-sets${q(3, 2)}`);

    const last = await p.api('GET', `/feature-sets${q(3, 2)}`, { token: owner.token });
    assert.deepEqual(
      last.body.data.map((fs: { attributes: { identifier: string } }) => fs.attributes.identifier),
      ['trial'],
    );
    assert.equal(last.body.meta.pagination['prev-page'], 2);
    assert.equal(last.body.meta.pagination['next-page'], null);
    assert.equal(last.body.links.next, null);
  });

  it('gives an empty page past the end, with the true totals', async () => {
    const res = await p.api('GET', `/feature-sets${q(9, 2)}`, { token: owner.token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, []);
    assert.equal(res.body.meta.pagination['total-count'], 5);
    assert.equal(res.body.meta.pagination['total-pages'], 3);
    assert.equal(res.body.meta.pagination['prev-page'], 3);
    assert.equal(res.body.meta.pagination['next-page'], null);
  });

  it('clamps page[size] to 100', async () => {
    const res = await p.api('GET', `/feature-sets${q(1, 1000)}`, { token: owner.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.meta.pagination['page-size'], 100);
  });

  it('refuses page values that are not positive whole numbers with 400', async () => {
    for (const [number, size] of [
      [0, 20],
      [1, 0],
      [-1, 20],
      ['abc', 20],
      [1, '1.5'],
      ['', 20],
      [1, '1e2'],
    ]) {
      for (const path of ['/feature-sets', '/organizations/acme/feature-sets']) {
        const res = await p.api('GET', `${path}${q(number ?? '', size ?? '')}`, { token: owner.token });
        assert.equal(res.status, 400, `${path} number=${number} size=${size}`);
        assert.equal(res.body.errors[0].status, '400');
        assert.equal(res.body.errors[0].code, 'invalid_request');
        assert.ok(res.body.errors[0].source.parameter.startsWith('page['));
      }
    }
  });

  it('marks the organization plan with is-current in the organization list', async () => {
    const res = await p.api('GET', '/organizations/acme/feature-sets', { token: owner.token });
    assert.equal(res.status, 200);
    const current = res.body.data.filter(
      (fs: { attributes: { 'is-current': boolean } }) => fs.attributes['is-current'],
    );
    assert.deepEqual(
      current.map((fs: { attributes: { identifier: string } }) => fs.attributes.identifier),
      ['free'],
    );
    assert.equal(res.body.links.first, `/api/v2/organizations/acme/feature-sets${q(1, 20)}`);
    const free = res.body.data[0].attributes;
    assert.deepEqual(
      LIMITS.map((n) => free[n]),
      [1, 10, 1, 1, 5, 1, 0],
    );
  });

  it('answers 401 without a token and 404 for an organization the token cannot see', async () => {
    assert.equal((await p.api('GET', '/feature-sets')).status, 401);
    const stranger = await p.createUser('stranger');
    assert.equal((await p.api('GET', '/organizations/acme/feature-sets', { token: stranger.token })).status, 404);
    assert.equal((await p.api('GET', '/organizations/nope/feature-sets', { token: owner.token })).status, 404);
    // Any valid token may read the global catalogue.
    assert.equal((await p.api('GET', '/feature-sets', { token: stranger.token })).status, 200);
  });
});
