import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startCli, stop, waitForOutput } from './cli-process.js';

const ADMIN = 'first-token-admin';

// Issue 28 point 8: a site administrator hands a new user the first token, and no more; a
// token minted for another user is logged.
describe('bin/ward-platform: a site administrator mints only a first token', () => {
  let cli: { child: ChildProcess; url: string; output: () => string };

  const api = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${cli.url}/api/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: JSON:API documents
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as any };
  };
  const mint = (userId: string, token: string, attributes: Record<string, unknown> = {}) =>
    api('POST', `/users/${userId}/authentication-tokens`, token, {
      data: { type: 'authentication-tokens', attributes },
    });
  const addUser = async (username: string): Promise<string> => {
    const res = await api('POST', '/admin/users', ADMIN, {
      data: { type: 'users', attributes: { username, email: `${username}@example.com` } },
    });
    assert.equal(res.status, 201);
    return res.body.data.id as string;
  };

  before(async () => {
    cli = await startCli(['--dev', '--dev-token', ADMIN, '--log-level', 'info']);
  });
  after(async () => {
    await stop(cli.child);
  });

  it('refuses a second token for a user who has one, so the admin cannot act as them', async () => {
    const bob = await addUser('bob');
    const first = await mint(bob, ADMIN);
    assert.equal(first.status, 201);
    const bobToken = first.body.data.attributes.token as string;
    const org = await api('POST', '/organizations', bobToken, {
      data: { type: 'organizations', attributes: { name: 'bobco', email: 'b@example.com' } },
    });
    assert.equal(org.status, 201);

    const second = await mint(bob, ADMIN);
    assert.equal(second.status, 404);
    assert.deepEqual(second.body, { errors: [{ status: '404', title: 'not found' }] });
    // Bob himself still makes as many as he likes.
    assert.equal((await mint(bob, bobToken)).status, 201);
    const listed = await api('GET', `/users/${bob}/authentication-tokens`, bobToken);
    assert.equal(listed.body.data.length, 2);
  });

  it('logs every token minted for another user, naming both and never the secret', async () => {
    const carol = await addUser('carol');
    const res = await mint(carol, ADMIN);
    assert.equal(res.status, 201);
    const logged = waitForOutput(
      cli.child,
      cli.output,
      new RegExp(`.*first token issued by a site administrator.*user=${carol}.*\n`),
    );
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no log line')), 5000).unref());
    const line = (await Promise.race([logged, timeout]))[0];
    assert.match(line, /admin=user-/);
    assert.match(line, new RegExp(`issued_id=${res.body.data.id}`));
    assert.ok(!line.includes(res.body.data.attributes.token), 'the secret is not logged');
  });

  it('lets the admin hand out a new first token once every token of the user is gone or expired', async () => {
    const dave = await addUser('dave');
    const first = await mint(dave, ADMIN);
    const daveToken = first.body.data.attributes.token as string;
    assert.equal((await api('DELETE', `/authentication-tokens/${first.body.data.id}`, daveToken)).status, 204);
    const again = await mint(dave, ADMIN, { 'expired-at': new Date(Date.now() + 1500).toISOString() });
    assert.equal(again.status, 201);
    assert.equal((await mint(dave, ADMIN)).status, 404);
    await new Promise((r) => setTimeout(r, 1600));
    assert.equal((await mint(dave, ADMIN)).status, 201);
  });
});
