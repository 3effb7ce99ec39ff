import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, startCli, stop, waitForOutput } from './cli-process.js';

const TOKEN = 'cli-test-token';

function runCli(args: string[]): { status: number | null; stderr: string } {
  try {
    execFileSync(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    return { status: 0, stderr: '' };
  } catch (err) {
    const e = err as { status: number | null; stderr: Buffer };
    return { status: e.status, stderr: e.stderr.toString() };
  }
}

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/vnd.api+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('bin/ward-platform', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ward-platform-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps organizations and subscriptions in its database across a restart', async () => {
    const db = join(dir, 'platform.db');
    const first = await startCli(['--db', db, '--dev', '--dev-token', TOKEN]);
    const created = await api(first.url, 'POST', '/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@example.com' } },
    });
    assert.equal(created.status, 201);
    const sub = await api(first.url, 'GET', '/organizations/acme/subscription');
    assert.equal(await stop(first.child), 0);

    const second = await startCli(['--db', db, '--dev', '--dev-token', TOKEN]);
    try {
      const again = await api(second.url, 'GET', '/organizations/acme/subscription');
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, sub.body);
    } finally {
      assert.equal(await stop(second.child), 0);
    }
  });

  it('prints a random admin token when --dev has none, and that token works', async () => {
    const cli = await startCli(['--dev']);
    try {
      const token = (await waitForOutput(cli.child, cli.output, /Dev admin token: (\S+)\n/))[1];
      const res = await fetch(`${cli.url}/api/v2/account/details`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { data: { attributes: { username: string } } };
      assert.equal(body.data.attributes.username, 'admin');
    } finally {
      await stop(cli.child);
    }
  });

  it('bootstraps a site administrator into the database of a running server', async () => {
    const db = join(dir, 'bootstrap.db');
    const cli = await startCli(['--db', db]);
    try {
      // Without --dev a new database has no users, so nothing can authenticate yet.
      assert.equal((await fetch(`${cli.url}/api/v2/organizations`)).status, 401);
      const out = execFileSync(process.execPath, [
        BIN,
        'admin',
        'create',
        '--db',
        db,
        '--username',
        'root',
        '--email',
        'root@example.com',
      ]);
      const token = /API token: (\S+)/.exec(out.toString())?.[1];
      assert.ok(token);
      const res = await fetch(`${cli.url}/api/v2/account/details`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { data: { attributes: { username: string; 'is-site-admin': boolean } } };
      assert.equal(body.data.attributes.username, 'root');
      assert.equal(body.data.attributes['is-site-admin'], true);
      assert.equal(
        runCli(['admin', 'create', '--db', db, '--username', 'root', '--email', 'root@example.com']).status,
        1,
      );
    } finally {
      await stop(cli.child);
    }
  });

  it('serves HTTPS with --tls-cert and --tls-key', async () => {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const cli = await startCli(['--dev', '--dev-token', TOKEN, '--tls-cert', cert, '--tls-key', key]);
    try {
      assert.match(cli.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(
          `${cli.url}/api/v2/feature-sets`,
          {
            ca: execFileSync('cat', [cert]),
            headers: { authorization: `Bearer ${TOKEN}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(status, 200);
    } finally {
      await stop(cli.child);
    }
  });

  it('prints usage and exits 0 for serve --help (and -help, -h)', () => {
    for (const flag of ['--help', '-help', '-h']) {
      const out = execFileSync(process.execPath, [BIN, 'serve', flag], { encoding: 'utf8' });
      assert.match(out, /^Usage: ward-platform serve/, flag);
      assert.match(out, /-rate-limit=N/);
    }
    assert.match(execFileSync(process.execPath, [BIN, 'admin', 'create', '-help'], { encoding: 'utf8' }), /^Usage/);
  });

  it('takes single-dash flags and answers GET /_health while the database answers', async () => {
    const cli = await startCli(['-dev', `-dev-token=${TOKEN}`, '-rate-limit', '50']);
    try {
      const health = await fetch(`${cli.url}/_health`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok', edition: 'hosted' });
      const res = await fetch(`${cli.url}/api/v2/account/details`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '50');
    } finally {
      await stop(cli.child);
    }
  });

  it('reads settings from --config, flags winning, and refuses an unknown key by name', async () => {
    const config = join(dir, 'platform.hcl');
    writeFileSync(config, 'rate_limit = 7\nedition = "self-hosted"\n');
    const cli = await startCli(['-config', config, '--edition', 'hosted', '--dev', `--dev-token=${TOKEN}`]);
    try {
      assert.match(cli.output(), /Ward platform \(hosted\)/);
      const res = await fetch(`${cli.url}/api/v2/feature-sets`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '7');
    } finally {
      await stop(cli.child);
    }
    writeFileSync(config, 'database_ulr = "postgres://x"\n');
    // A bad file is not a usage error: exit 1, as ward server and ward-agent do.
    const bad = runCli(['serve', '--config', config]);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, new RegExp(`^Error: ${config}:1: unknown key "database_ulr"`));
  });

  // Issue 21 point 12: the flag style, duration parser and usage exit code all three binaries share.
  it('takes -flag=value, -flag value and --flag; refuses an unknown flag or a bad duration with exit 2', () => {
    const db = join(dir, 'flag-style.db');
    const create = (args: string[]) =>
      execFileSync(process.execPath, [BIN, 'admin', 'create', ...args], { encoding: 'utf8' });
    const before = Date.now();
    const a = create([`-db=${db}`, '-username=a', '-email=a@example.com', '-token-ttl=720h']);
    const expires = Date.parse(/^Token expires: (\S+)$/m.exec(a)?.[1] ?? '');
    assert.ok(expires >= before + 720 * 3_600_000 && expires <= Date.now() + 720 * 3_600_000, a);
    const b = create(['-db', db, '-username', 'b', '--email', 'b@example.com', '--token-ttl', '1h30m']);
    assert.match(b, /^API token: /m);
    assert.match(b, /^Token expires: /m);
    assert.doesNotMatch(create(['--db', db, '--username=c', '-email=c@example.com']), /Token expires/);

    const unknown = runCli(['serve', '-bogus=1']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^Error: flag provided but not defined: -bogus\n\nUsage: ward-platform serve/);
    const bad = runCli(['admin', 'create', '-db', db, '-username=d', '-email=d@example.com', '-token-ttl=1fortnight']);
    assert.equal(bad.status, 2);
    assert.match(
      bad.stderr,
      /^Error: invalid value "1fortnight" for flag -token-ttl: unknown unit "fortnight" in duration "1fortnight"\n\nUsage: ward-platform admin create/,
    );
    const level = runCli(['serve', '-log-level', 'loud']);
    assert.equal(level.status, 2);
    assert.match(
      level.stderr,
      /^Error: invalid value "loud" for flag -log-level: not one of trace, debug, info, warn, error\n/,
    );
    for (const ttl of ['-1s', '90', '0s']) {
      const refused = runCli([
        'admin',
        'create',
        `-db=${db}`,
        '-username=d',
        '-email=d@example.com',
        `-token-ttl=${ttl}`,
      ]);
      assert.equal(refused.status, 2, ttl);
    }
    for (const args of [[], ['-bogus'], ['frobnicate'], ['serve', '-listen'], ['serve', 'extra']]) {
      const r = runCli(args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, /^Error: .*\n\nUsage: ward-platform /s, args.join(' '));
    }
    for (const version of ['version', '-version', '--version'])
      assert.equal(execFileSync(process.execPath, [BIN, version], { encoding: 'utf8' }), 'Ward platform v0.1.0\n');
    for (const help of ['-help', '-h', '--help'])
      assert.match(
        execFileSync(process.execPath, [BIN, help], { encoding: 'utf8' }),
        /^Usage: ward-platform <command>/,
      );
  });

  it('exits 2 with a message on bad usage', () => {
    for (const args of [
      ['serve', '--edition', 'cloud'],
      ['serve', '--listen', 'nowhere'],
      ['serve', '--bogus'],
      ['frobnicate'],
      ['serve', '--tls-cert', 'x'],
      ['serve', '-rate-limit=0'],
      ['serve', '--rate-limit', 'lots'],
      ['serve', '--database-url', 'mysql://db/x'],
      ['serve', '--db', 'x.db', '--database-url', 'postgres://db/x'],
    ]) {
      const res = runCli(args);
      assert.equal(res.status, 2, args.join(' '));
      assert.match(res.stderr, /^Error: /);
    }
  });
});
