import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PostgresServer } from '@ward/base/testing';
import pg from 'pg';
import { BIN, startCli, stop } from './cli-process.js';
import { WebClient } from './testing.js';

const TOKEN = 'two-process-token';
const PLANS = { free: 'fs-EvCGYfpx9CVRzteA', team: 'fs-g5jeyzSkqsK5p3CT', governance: 'fs-EP5Niczf2xKUFDXt' };

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/vnd.api+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON documents
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

// Issue 23, point 14: two `bin/ward-platform serve` processes on one PostgreSQL database.
describe('two platform processes on one PostgreSQL database', () => {
  let server: PostgresServer;
  let databaseUrl: string;
  const processes: ChildProcess[] = [];
  let a: string;
  let b: string;
  let dir: string;

  before(async () => {
    server = await PostgresServer.start();
    databaseUrl = await server.createDatabase();
    // Started together: migrations, the catalogue and the dev admin must survive the race. One
    // finds the database in its config file, the other in WARD_PLATFORM_DATABASE_URL.
    dir = mkdtempSync(join(tmpdir(), 'ward-platform-pg-config-'));
    const config = join(dir, 'platform.hcl');
    writeFileSync(config, `database_url = "${databaseUrl}"\nrate_limit = 1000\n`);
    const dev = ['--dev', '--dev-token', TOKEN];
    const started = await Promise.all([
      startCli([...dev, '-config', config]),
      startCli([...dev, '--rate-limit', '1000'], { ...process.env, WARD_PLATFORM_DATABASE_URL: databaseUrl }),
    ]);
    for (const s of started) processes.push(s.child);
    [a, b] = started.map((s) => s.url) as [string, string];
    const org = await api(a, 'POST', '/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'billing@acme.example' } },
    });
    assert.equal(org.status, 201);
  });
  after(async () => {
    for (const child of processes) await stop(child);
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shares web sessions: signed in on one process, the other knows the session', async () => {
    const web = new WebClient(a);
    assert.equal((await web.signIn(TOKEN)).status, 303);
    const onB = new WebClient(b);
    for (const [k, v] of web.cookies) onB.cookies.set(k, v);
    const page = await onB.get('/app/acme/settings/billing');
    assert.equal(page.status, 200);
    assert.match(page.html, /Current plan: Free/);
  });

  it('never leaves two active subscriptions when both change the plan at once', async () => {
    const web = new WebClient(a);
    await web.signIn(TOKEN);
    const csrf = WebClient.csrfToken(
      (await web.get(`/app/acme/settings/billing/confirm?feature_set=${PLANS.team}`)).html,
    );
    const onB = new WebClient(b);
    for (const [k, v] of web.cookies) onB.cookies.set(k, v);
    const order = [PLANS.team, PLANS.governance, PLANS.free, PLANS.team, PLANS.governance, PLANS.free];
    const results = await Promise.all(
      [...order, ...order].map((plan, i) =>
        (i % 2 === 0 ? web : onB).post('/app/acme/settings/billing', { authenticity_token: csrf, feature_set: plan }),
      ),
    );
    // Each change either lands (303) or is refused as the plan already in force (422); never a 500.
    for (const r of results) assert.ok(r.status === 303 || r.status === 422, `${r.status}: ${r.html}`);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const active = await client.query(
        `SELECT s.id FROM subscriptions s JOIN organizations o ON o.id = s.organization_id
         WHERE o.name = 'acme' AND s.is_active = 1`,
      );
      assert.equal(active.rows.length, 1);
      const fromA = await api(a, 'GET', '/organizations/acme/subscription');
      const fromB = await api(b, 'GET', '/organizations/acme/subscription');
      assert.equal(fromA.body.data.id, active.rows[0].id);
      assert.equal(fromB.body.data.id, active.rows[0].id);
    } finally {
      await client.end();
    }
  });

  it('lets admin create add a site administrator to the shared database while both run', async () => {
    const out = execFileSync(
      process.execPath,
      [BIN, 'admin', 'create', '-database-url', databaseUrl, '-username', 'root2', '-email', 'root2@example.com'],
      { encoding: 'utf8' },
    );
    const token = /API token: (\S+)/.exec(out)?.[1];
    assert.ok(token, out);
    for (const url of [a, b]) {
      const me: Response = await fetch(`${url}/api/v2/account/details`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(me.status, 200);
      assert.equal(
        ((await me.json()) as { data: { attributes: { username: string } } }).data.attributes.username,
        'root2',
      );
    }
  });

  it('counts one token against one rate limit across both processes', async () => {
    // Two requests in one window of the servers' clock: the second, on the other process, sees
    // the first counted. A window may end between them; then look again.
    for (let attempt = 0; attempt < 20; attempt++) {
      const first = await api(a, 'GET', '/account/details');
      const second = await api(b, 'GET', '/account/details');
      const resetFirst = Number(first.headers.get('x-ratelimit-reset'));
      const resetSecond = Number(second.headers.get('x-ratelimit-reset'));
      if (resetSecond > resetFirst) continue;
      assert.equal(
        Number(second.headers.get('x-ratelimit-remaining')),
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      );
      return;
    }
    assert.fail('no two requests landed in one rate-limit window');
  });
});
