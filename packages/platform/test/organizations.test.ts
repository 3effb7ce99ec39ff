import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { TestPlatform, type TestUser } from './testing.js';

const NOT_FOUND = { errors: [{ status: '404', title: 'not found' }] };
const orgBody = (name: unknown, email: unknown = 'a@example.com') => ({
  data: { type: 'organizations', attributes: { name, email } },
});

describe('organizations', () => {
  let p: TestPlatform;
  let owner: TestUser;
  let stranger: TestUser;

  before(async () => {
    p = await TestPlatform.start();
    owner = await p.createUser('owner');
    stranger = await p.createUser('stranger');
  });
  after(() => p.stop());

  it('creates an organization owned by the caller, on the free plan, in one step', async () => {
    const res = await p.createOrganization(owner.token, 'acme');
    assert.equal(res.status, 201);
    const data = res.body.data;
    assert.equal(data.id, 'acme');
    assert.equal(data.type, 'organizations');
    assert.match(data.attributes['external-id'], /^org-[0-9A-Za-z]{16}$/);
    assert.equal(data.attributes['created-at'], '2024-03-01T12:00:00.123Z');
    assert.deepEqual(data.relationships['entitlement-set'].data, {
      id: data.attributes['external-id'],
      type: 'entitlement-sets',
    });
    assert.equal(data.relationships.subscription.links.related, '/api/v2/organizations/acme/subscription');
    const sub = await p.api('GET', '/organizations/acme/subscription', { token: owner.token });
    assert.equal(sub.body.included[0].attributes.identifier, 'free');
    const ent = await p.api('GET', '/organizations/acme/entitlement-set', { token: owner.token });
    assert.equal(ent.body.data.id, data.attributes['external-id']);
    assert.equal(ent.body.data.type, 'entitlement-sets');
    assert.deepEqual(
      [
        'run-task-limit',
        'run-task-workspace-limit',
        'run-task-mandatory-enforcement-limit',
        'policy-set-limit',
        'policy-limit',
        'policy-mandatory-enforcement-limit',
        'versioned-policy-set-limit',
      ].map((n) => ent.body.data.attributes[n]),
      [1, 10, 1, 1, 5, 1, 0],
    );
    assert.equal(ent.body.data.attributes['policy-engine'], false);
    assert.equal(ent.body.data.attributes['state-storage'], true);
  });

  it('refuses invalid and taken names with 422 and a pointer', async () => {
    for (const [name, email] of [
      ['has space', 'a@example.com'],
      ['', 'a@example.com'],
      [42, 'a@example.com'],
      ['x'.repeat(41), 'a@example.com'],
      ['ok-name', 'not-an-email'],
      ['ACME', 'a@example.com'],
    ]) {
      const res = await p.api('POST', '/organizations', { token: owner.token, body: orgBody(name, email) });
      assert.equal(res.status, 422, `${name} ${email}`);
      assert.equal(res.body.errors[0].code, 'unprocessable');
    }
    const missing = await p.api('POST', '/organizations', { token: owner.token, body: orgBody(undefined) });
    assert.equal(missing.body.errors[0].source.pointer, '/data/attributes/name');
  });

  it('refuses documents of the wrong shape with 400 and a body that is not JSON:API with 415', async () => {
    for (const body of [{}, { data: [] }, { data: { type: 'users', attributes: {} } }]) {
      assert.equal((await p.api('POST', '/organizations', { token: owner.token, body })).status, 400);
    }
    const res = await fetch(`${p.baseUrl}/api/v2/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/plain' },
      body: 'name=x',
    });
    assert.equal(res.status, 415);
    const bad = await fetch(`${p.baseUrl}/api/v2/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/vnd.api+json' },
      body: '{',
    });
    assert.equal(bad.status, 400);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const huge = JSON.stringify(orgBody('big', `${'a'.repeat(1024 * 1024)}@example.com`));
    const res = await fetch(`${p.baseUrl}/api/v2/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/vnd.api+json' },
      body: huge,
    });
    assert.equal(res.status, 413);
    const body = (await res.json()) as { errors: Array<{ code: string }> };
    assert.equal(body.errors[0]?.code, 'payload_too_large');
    assert.equal((await p.api('GET', '/organizations/big', { token: owner.token })).status, 404);

    // Without a Content-Length the limit is found while reading; the client still gets the 413.
    const chunked = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        `${p.baseUrl}/api/v2/organizations`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/vnd.api+json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(64 * 1024));
      req.end();
    });
    assert.equal(chunked, 413);
  });

  it('lists only the organizations the token belongs to, paginated', async () => {
    await p.createOrganization(owner.token, 'beta');
    await p.createOrganization(stranger.token, 'gamma');
    const mine = await p.api('GET', '/organizations?page%5Bsize%5D=1', { token: owner.token });
    assert.deepEqual(
      mine.body.data.map((o: { id: string }) => o.id),
      ['acme'],
    );
    assert.equal(mine.body.meta.pagination['total-count'], 2);
    const page2 = await p.api('GET', '/organizations?page%5Bnumber%5D=2&page%5Bsize%5D=1', { token: owner.token });
    assert.deepEqual(
      page2.body.data.map((o: { id: string }) => o.id),
      ['beta'],
    );
    const theirs = await p.api('GET', '/organizations', { token: stranger.token });
    assert.deepEqual(
      theirs.body.data.map((o: { id: string }) => o.id),
      ['gamma'],
    );
    assert.equal((await p.api('GET', '/organizations?page%5Bnumber%5D=0', { token: owner.token })).status, 400);
  });

  it('shows an organization only to those tied to it', async () => {
    assert.equal((await p.api('GET', '/organizations/acme', { token: owner.token })).status, 200);
    assert.deepEqual((await p.api('GET', '/organizations/acme', { token: stranger.token })).body, NOT_FOUND);
    assert.deepEqual(
      (await p.api('GET', '/organizations/acme/entitlement-set', { token: stranger.token })).body,
      NOT_FOUND,
    );
    assert.equal((await p.api('GET', '/organizations/acme')).status, 401);
  });

  it('deletes an organization for an owner only, taking its subscriptions with it', async () => {
    const member = await p.createUser('member');
    await p.addMember(owner.token, 'beta', member);
    const subId = (await p.api('GET', '/organizations/beta/subscription', { token: owner.token })).body.data.id;
    const orgToken = (await p.api('POST', '/organizations/beta/authentication-token', { token: owner.token })).body.data
      .attributes.token;
    assert.equal((await p.api('DELETE', '/organizations/beta', { token: member.token })).status, 404);
    assert.equal((await p.api('DELETE', '/organizations/beta', { token: orgToken })).status, 404);
    assert.equal((await p.api('DELETE', '/organizations/beta', { token: stranger.token })).status, 404);
    const del = await p.api('DELETE', '/organizations/beta', { token: owner.token });
    assert.equal(del.status, 204);
    assert.equal(del.body, undefined);
    assert.equal((await p.api('GET', '/organizations/beta', { token: owner.token })).status, 404);
    assert.equal((await p.api('GET', `/subscriptions/${subId}`, { token: owner.token })).status, 404);
    // Its organization token went with it.
    assert.equal((await p.api('GET', '/organizations', { token: orgToken })).status, 401);
  });

  it('adds only existing users as members', async () => {
    const res = await p.api('POST', '/organizations/acme/organization-memberships', {
      token: owner.token,
      body: { data: { type: 'organization-memberships', attributes: { email: 'nobody@example.com' } } },
    });
    assert.equal(res.status, 422);
    const byStranger = await p.api('POST', '/organizations/acme/organization-memberships', {
      token: stranger.token,
      body: { data: { type: 'organization-memberships', attributes: { email: 'owner@example.com' } } },
    });
    assert.equal(byStranger.status, 404);
  });

  it('answers unknown API paths with the JSON:API 404', async () => {
    const res = await p.api('GET', '/no-such-thing', { token: owner.token });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, NOT_FOUND);
  });
});
