import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard } from '../src/cli/testing.js';
import { type DevWard, startDevWard } from './ward-process.js';

// `ward pki health-check` as established (the checks Ward's endpoints allow), through bin/ward
// against bin/ward server -dev: findings per check, JSON and table, and the exit status.

describe('ward pki health-check (bin/ward against bin/ward server)', () => {
  let dev: DevWard;
  const ward = (args: string[], token?: string) =>
    runWard(args, { ...dev.env, ...(token === undefined ? {} : { VAULT_TOKEN: token }) });
  const ok = async (...args: string[]) => {
    const run = await ward(args);
    assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };

  before(async () => {
    dev = await startDevWard('root');
    await ok('secrets', 'enable', '-path=pki_bad', 'pki');
    await ok('write', 'pki_bad/root/generate/internal', 'common_name=Short Root', 'ttl=240h');
    await ok(
      'write',
      'pki_bad/roles/local',
      'allowed_domains=example.com',
      'allow_localhost=true',
      'allow_subdomains=true',
    );
    await ok(
      'write',
      'pki_bad/roles/globs',
      'allowed_domains=*.example.com',
      'allow_glob_domains=true',
      'allow_wildcard_certificates=true',
      'allow_localhost=false',
    );
    await ok('write', 'pki_bad/issue/local', 'common_name=app.example.com', 'ttl=1h');
    await ok('secrets', 'enable', '-path=pki_good', '-max-lease-ttl=87600h', 'pki');
    await ok('write', 'pki_good/root/generate/internal', 'common_name=Long Root', 'ttl=26280h');
    await ok('write', 'pki_good/config/auto-tidy', 'enabled=true', 'interval_duration=1h', 'tidy_cert_store=true');
    await ok('write', 'pki_good/tidy', 'tidy_cert_store=true');
    for (let i = 0; i < 50; i++) {
      if ((await ok('read', '-field=state', 'pki_good/tidy-status')).trim() === 'Finished') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  after(async () => {
    dev?.ward.child.kill('SIGTERM');
    await dev?.ward.exited;
  });

  it('finds an expiring root, a root that signs leaves and risky roles: JSON, exit 4 (critical)', async () => {
    const run = await ward(['pki', 'health-check', '-format=json', 'pki_bad']);
    assert.equal(run.code, 4, run.stderr);
    const results = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(results), [
      'ca_validity_period',
      'crl_validity_period',
      'root_issued_leaves',
      'role_allows_localhost',
      'role_allows_glob_wildcards',
      'role_no_store_false',
      'enable_auto_tidy',
      'tidy_last_run',
      'too_many_certs',
    ]);
    assert.deepEqual(
      results.crl_validity_period.map((f: { status: string; endpoint: string }) => [
        f.status,
        /\/crl(\/delta)?$/.exec(f.endpoint)?.[0],
      ]),
      [['ok', '/crl']],
    );
    assert.deepEqual(
      results.role_no_store_false.map((f: { status: string; endpoint: string }) => [f.status, f.endpoint]).sort(),
      [
        ['warning', '/pki_bad/roles/globs'],
        ['warning', '/pki_bad/roles/local'],
      ],
    );
    assert.equal(results.enable_auto_tidy[0].status, 'informational', 'auto-tidy is off');
    assert.equal(results.tidy_last_run[0].status, 'critical', 'no tidy ever finished');
    const [validity] = results.ca_validity_period;
    assert.equal(validity.status, 'critical');
    assert.equal(validity.status_code, 4);
    assert.match(validity.endpoint, /^\/pki_bad\/issuer\/[0-9a-f-]{36}$/);
    assert.equal(results.root_issued_leaves[0].status, 'warning');
    assert.deepEqual(
      results.role_allows_localhost.map((f: { status: string; endpoint: string }) => [f.status, f.endpoint]),
      [['warning', '/pki_bad/roles/local']],
    );
    assert.deepEqual(
      results.role_allows_glob_wildcards.map((f: { status: string; endpoint: string }) => [f.status, f.endpoint]),
      [['warning', '/pki_bad/roles/globs']],
    );
    assert.equal(results.too_many_certs[0].status, 'ok');
  });

  it('prints a table per check; -return-indicator and -health-config change what fails and what runs', async () => {
    const table = await ward(['pki', 'health-check', 'pki_bad']);
    assert.equal(table.code, 4);
    assert.match(
      table.stdout,
      /^ca_validity_period\n-{18}\nstatus\s+endpoint\s+message\n-+\s+-+\s+-+\ncritical\s+\/pki_bad\/issuer\//m,
    );
    const config = join(dev.env.HOME ?? '', 'health.json');
    await writeFile(
      config,
      JSON.stringify({
        ca_validity_period: { enabled: false },
        tidy_last_run: { enabled: false },
        too_many_certs: { count_warning: 1 },
      }),
    );
    const tuned = await ward(['pki', 'health-check', '-format=json', `-health-config=${config}`, 'pki_bad']);
    assert.equal(tuned.code, 3, 'the worst left is a warning');
    const results = JSON.parse(tuned.stdout);
    assert.equal(results.ca_validity_period, undefined);
    assert.equal(results.too_many_certs[0].status, 'warning');
    const onlyCritical = await ward([
      'pki',
      'health-check',
      '-return-indicator=critical',
      `-health-config=${config}`,
      'pki_bad',
    ]);
    assert.equal(onlyCritical.code, 0, 'warnings do not fail the run at -return-indicator=critical');
    await writeFile(config, JSON.stringify({ too_many_certs: { enabled: true } }));
    const one = await ward([
      'pki',
      'health-check',
      '-default-disabled',
      '-format=json',
      `-health-config=${config}`,
      'pki_bad',
    ]);
    assert.deepEqual(Object.keys(JSON.parse(one.stdout)), ['too_many_certs']);
    await writeFile(config, JSON.stringify({ too_many_certs: { bogus: 1 } }));
    assert.equal((await ward(['pki', 'health-check', `-health-config=${config}`, 'pki_bad'])).code, 2);
  });

  it('passes a healthy mount (exit 0) and lists the checks with -list', async () => {
    const run = await ward(['pki', 'health-check', '-format=json', 'pki_good']);
    assert.equal(run.code, 0, run.stdout);
    const good = JSON.parse(run.stdout);
    assert.equal(good.ca_validity_period[0].status, 'ok');
    assert.equal(good.enable_auto_tidy[0].status, 'ok');
    assert.equal(good.tidy_last_run[0].status, 'ok');
    const list = await ward(['pki', 'health-check', '-list', '-format=json']);
    assert.equal(list.code, 0);
    assert.equal(JSON.parse(list.stdout).ca_validity_period.root_expiry_critical, '180d');
    assert.match(await ok('pki', 'health-check', '-list'), /^Default health check config:\n\{/);
  });

  it('reports what the token may not read (exit 6), and refuses a mount that is not pki', async () => {
    const policy =
      'path "sys/mounts/*" { capabilities = ["read"] }\npath "pki_bad/issuer/*" { capabilities = ["read"] }\n';
    assert.equal((await runWard(['policy', 'write', 'health', '-'], dev.env, policy)).code, 0);
    const token = (await ok('token', 'create', '-policy=health', '-field=token')).trim();
    const denied = await ward(['pki', 'health-check', '-format=json', 'pki_bad'], token);
    assert.equal(denied.code, 6, denied.stderr);
    const results = JSON.parse(denied.stdout);
    assert.equal(
      results.ca_validity_period[0].status,
      'critical',
      'issuers are listed without a token; issuer/* may be read',
    );
    assert.deepEqual(results.role_allows_localhost, [
      {
        status_code: 6,
        status: 'insufficient_permissions',
        endpoint: '/pki_bad/roles',
        message: 'This token may not read this endpoint, so the check cannot run.',
      },
    ]);
    assert.equal(results.too_many_certs[0].endpoint, '/pki_bad/certs');
    assert.equal(results.too_many_certs[0].status, 'insufficient_permissions');
    const kv = await ward(['pki', 'health-check', 'secret']);
    assert.equal(kv.code, 2);
    assert.match(kv.stderr, /refusing to run the PKI health check on a mount of type kv/);
  });
});
