import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startCli, stop } from './cli-process.js';
import { JSONAPI, WebClient } from './testing.js';

// Issue 35, billing page row: "no way to create an organization from the UI". Through the real
// bin/ward-platform, with the dev admin (a user) signed in on the web pages.
const TOKEN = 'org-form-token';

describe('creating an organization from the web UI (bin/ward-platform)', () => {
  let child: ChildProcess;
  let url: string;
  let web: WebClient;

  before(async () => {
    ({ child, url } = await startCli(['-dev', `-dev-token=${TOKEN}`, '-log-level=warn']));
    web = new WebClient(url);
    assert.equal((await web.signIn(TOKEN)).status, 303);
  });
  after(() => stop(child));

  const api = async (path: string) => {
    const res = await fetch(`${url}/api/v2${path}`, { headers: { authorization: `Bearer ${TOKEN}`, accept: JSONAPI } });
    return { status: res.status, body: await res.json() };
  };

  /** The form as the page serves it, then submitted with `fields`. */
  async function submit(fields: Record<string, string>) {
    const form = await web.get('/app/organizations/new');
    assert.equal(form.status, 200);
    return web.post('/app/organizations', { authenticity_token: WebClient.csrfToken(form.html), ...fields });
  }

  it('links to the form from the organizations page, and sends a signed-out visitor to sign in and back', async () => {
    const list = await web.get('/app');
    assert.match(list.html, /<a class="button" href="\/app\/organizations\/new">New organization<\/a>/);
    const signedOut = await new WebClient(url).get('/app/organizations/new');
    assert.equal(signedOut.status, 303);
    assert.equal(signedOut.location, `/app/session/new?return_to=${encodeURIComponent('/app/organizations/new')}`);
    const form = await web.get('/app/organizations/new');
    assert.match(form.html, /<label for="name">Organization name<\/label>/);
    assert.match(form.html, /<label for="email">Email<\/label>/);
  });

  it('creates it: 303 to the list, which shows it; the API has it with the caller as owner on the free plan', async () => {
    const res = await submit({ name: 'web-made', email: 'billing@web-made.example' });
    assert.equal(res.status, 303);
    assert.equal(res.location, '/app?created=web-made');
    const list = await web.get(res.location ?? '');
    assert.match(list.html, /role="status">Organization web-made created; you are its owner\./);
    assert.match(list.html, /href="\/app\/web-made\/settings\/billing">web-made: billing settings/);
    const org = await api('/organizations/web-made');
    assert.equal(org.status, 200);
    assert.equal(org.body.data.attributes.email, 'billing@web-made.example');
    const sub = await api('/organizations/web-made/subscription');
    assert.equal(sub.status, 200);
    assert.equal(sub.body.included[0].attributes.identifier, 'free');
    // The owner's billing page opens.
    const billing = await web.get('/app/web-made/settings/billing');
    assert.equal(billing.status, 200);
    assert.match(billing.html, /Current plan: Free/);
  });

  it("shows the API's errors under their fields, keeps what was typed, and creates nothing", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [
        { name: 'bad name!', email: 'a@b.example' },
        'name',
        'name may hold only letters, digits, &quot;-&quot; and &quot;_&quot; (at most 40)',
      ],
      [{ name: 'WEB-MADE', email: 'a@b.example' }, 'name', 'name has already been taken'],
      [{ name: '', email: 'a@b.example' }, 'name', 'name is required'],
      [{ name: 'fine-name', email: 'not-an-email' }, 'email', 'email is invalid'],
    ];
    for (const [fields, field, message] of cases) {
      const res = await submit(fields);
      assert.equal(res.status, 422, JSON.stringify(fields));
      assert.ok(res.html.includes(`<p class="field-error" id="${field}-error">${message}</p>`), res.html);
      assert.match(
        res.html,
        new RegExp(`id="${field}"[^>]*aria-describedby="${field}-hint ${field}-error" aria-invalid="true"`),
      );
      assert.match(res.html, /role="alert">The organization was not created/);
      assert.match(res.html, new RegExp(`id="email" name="email" value="${fields.email}"`));
      assert.match(res.html, /Signed in as admin/);
    }
    assert.equal((await api('/organizations/fine-name')).status, 404);
    const all = await api('/organizations');
    assert.deepEqual(
      all.body.data.map((o: { id: string }) => o.id),
      ['web-made'],
    );
  });

  it("refuses a submission without the session's CSRF token (403) and creates nothing", async () => {
    const forged = await web.post('/app/organizations', {
      authenticity_token: 'x',
      name: 'forged',
      email: 'a@b.example',
    });
    assert.equal(forged.status, 403);
    const missing = await web.post('/app/organizations', { name: 'forged', email: 'a@b.example' });
    assert.equal(missing.status, 403);
    const signedOut = await new WebClient(url).post('/app/organizations', {
      authenticity_token: 'x',
      name: 'forged',
      email: 'a@b.example',
    });
    assert.equal(signedOut.status, 403);
    assert.equal((await api('/organizations/forged')).status, 404);
  });
});
