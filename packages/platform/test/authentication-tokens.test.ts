import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKEN, TestPlatform, type TestUser } from './testing.js';

const tokenBody = (attributes: Record<string, unknown> = {}) => ({
  data: { type: 'authentication-tokens', attributes },
});

describe('authentication tokens', () => {
  let p: TestPlatform;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    p = await TestPlatform.start();
    alice = await p.createUser('alice');
    bob = await p.createUser('bob');
    await p.createOrganization(alice.token, 'acme');
    await p.createOrganization(bob.token, 'bobco');
  });
  after(() => p.stop());

  it('returns a new user token once, and never again', async () => {
    const created = await p.api('POST', `/users/${alice.id}/authentication-tokens`, {
      token: alice.token,
      body: tokenBody({ description: 'ci' }),
    });
    assert.equal(created.status, 201);
    const { id, attributes } = created.body.data;
    assert.match(id, /^at-[0-9A-Za-z]{16}$/);
    assert.equal(attributes.description, 'ci');
    assert.match(attributes.token, /^[0-9A-Za-z]{14}\.wardv1\.[0-9A-Za-z]{64}$/);
    assert.deepEqual(created.body.data.relationships['created-by'].data, { id: alice.id, type: 'users' });

    const shown = await p.api('GET', `/authentication-tokens/${id}`, { token: attributes.token });
    assert.equal(shown.status, 200);
    assert.equal(shown.body.data.attributes.token, null);
    assert.equal(shown.body.data.attributes['last-used-at'], '2024-03-01T12:00:00.123Z');
    const listed = await p.api('GET', `/users/${alice.id}/authentication-tokens`, { token: alice.token });
    assert.ok(listed.body.data.some((t: { id: string }) => t.id === id));
    assert.ok(listed.body.data.every((t: { attributes: { token: null } }) => t.attributes.token === null));
  });

  it('lets nobody else see, list, create or delete a user token', async () => {
    const created = await p.api('POST', `/users/${alice.id}/authentication-tokens`, { token: alice.token });
    const id = created.body.data.id;
    assert.equal((await p.api('GET', `/authentication-tokens/${id}`, { token: bob.token })).status, 404);
    assert.equal((await p.api('DELETE', `/authentication-tokens/${id}`, { token: bob.token })).status, 404);
    assert.equal((await p.api('GET', `/users/${alice.id}/authentication-tokens`, { token: bob.token })).status, 404);
    assert.equal((await p.api('POST', `/users/${alice.id}/authentication-tokens`, { token: bob.token })).status, 404);
    // The site administrator hands out first tokens, but cannot read a user's tokens.
    assert.equal((await p.api('GET', `/authentication-tokens/${id}`, { token: ADMIN_TOKEN })).status, 404);
    assert.equal((await p.api('GET', `/authentication-tokens/${id}`, { token: alice.token })).status, 200);
  });

  it('stops a deleted token from working at once', async () => {
    const created = await p.api('POST', `/users/${alice.id}/authentication-tokens`, { token: alice.token });
    const { id, attributes } = created.body.data;
    assert.equal((await p.api('GET', '/organizations/acme', { token: attributes.token })).status, 200);
    assert.equal((await p.api('DELETE', `/authentication-tokens/${id}`, { token: alice.token })).status, 204);
    assert.equal((await p.api('GET', '/organizations/acme', { token: attributes.token })).status, 401);
    assert.equal((await p.api('GET', `/authentication-tokens/${id}`, { token: alice.token })).status, 404);
  });

  it('refuses a bad expired-at with 422', async () => {
    const res = await p.api('POST', `/users/${alice.id}/authentication-tokens`, {
      token: alice.token,
      body: tokenBody({ 'expired-at': 'tomorrow' }),
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].source.pointer, '/data/attributes/expired-at');
  });

  it('refuses an expired-at in the past (or now) with 422, for user and organization tokens', async () => {
    const past = new Date(p.clock.now() - 1000).toISOString();
    for (const [path, type] of [
      [`/users/${alice.id}/authentication-tokens`, 'authentication-tokens'],
      ['/organizations/acme/authentication-token', 'authentication-token'],
    ] as const) {
      for (const when of [past, new Date(p.clock.now()).toISOString()]) {
        const res = await p.api('POST', path, {
          token: alice.token,
          body: { data: { type, attributes: { 'expired-at': when } } },
        });
        assert.equal(res.status, 422, `${path} ${when}`);
        assert.equal(res.body.errors[0].source.pointer, '/data/attributes/expired-at');
      }
    }
    const future = new Date(p.clock.now() + 60_000).toISOString();
    const ok = await p.api('POST', `/users/${alice.id}/authentication-tokens`, {
      token: alice.token,
      body: tokenBody({ 'expired-at': future }),
    });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.data.attributes['expired-at'], future);
  });

  it('gives an organization one token that sees only that organization, and replaces it on request', async () => {
    const first = await p.api('POST', '/organizations/acme/authentication-token', { token: alice.token });
    assert.equal(first.status, 201);
    const firstToken = first.body.data.attributes.token;
    const orgs = await p.api('GET', '/organizations', { token: firstToken });
    assert.deepEqual(
      orgs.body.data.map((o: { id: string }) => o.id),
      ['acme'],
    );
    assert.equal((await p.api('GET', '/organizations/bobco', { token: firstToken })).status, 404);
    assert.equal((await p.api('GET', '/organizations/acme/entitlement-set', { token: firstToken })).status, 200);
    // It acts for no user: user-only operations are the same 404.
    assert.equal((await p.api('GET', '/account/details', { token: firstToken })).status, 404);
    assert.equal(
      (
        await p.api('POST', '/organizations', {
          token: firstToken,
          body: { data: { type: 'organizations', attributes: { name: 'x', email: 'x@y.z' } } },
        })
      ).status,
      404,
    );
    assert.equal((await p.api('POST', '/organizations/acme/authentication-token', { token: firstToken })).status, 404);

    const second = await p.api('POST', '/organizations/acme/authentication-token', { token: alice.token });
    assert.notEqual(second.body.data.attributes.token, firstToken);
    assert.equal((await p.api('GET', '/organizations/acme', { token: firstToken })).status, 401);
    assert.equal((await p.api('GET', '/organizations/acme', { token: second.body.data.attributes.token })).status, 200);

    assert.equal((await p.api('DELETE', '/organizations/acme/authentication-token', { token: bob.token })).status, 404);
    assert.equal(
      (await p.api('DELETE', '/organizations/acme/authentication-token', { token: alice.token })).status,
      204,
    );
    assert.equal((await p.api('GET', '/organizations/acme', { token: second.body.data.attributes.token })).status, 401);
    assert.equal(
      (await p.api('DELETE', '/organizations/acme/authentication-token', { token: alice.token })).status,
      404,
    );
  });

  it('lets only a site administrator add users, and tells who the caller is', async () => {
    const body = { data: { type: 'users', attributes: { username: 'carol', email: 'carol@example.com' } } };
    assert.equal((await p.api('POST', '/admin/users', { token: alice.token, body })).status, 404);
    const created = await p.api('POST', '/admin/users', { token: ADMIN_TOKEN, body });
    assert.equal(created.status, 201);
    assert.match(created.body.data.id, /^user-[0-9A-Za-z]{16}$/);
    assert.equal((await p.api('POST', '/admin/users', { token: ADMIN_TOKEN, body })).status, 422);
    const me = await p.api('GET', '/account/details', { token: alice.token });
    assert.equal(me.body.data.id, alice.id);
    assert.equal(me.body.data.attributes.username, 'alice');
  });
});
