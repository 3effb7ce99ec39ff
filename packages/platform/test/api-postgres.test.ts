import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PostgresServer } from '@ward/base/testing';
import { POSTGRES_ADMIN_URL_ENV } from './testing.js';

/** The whole-server API and page tests that run on TestPlatform, all of them again on PostgreSQL. */
const API_TESTS = [
  'api-conventions',
  'authentication-tokens',
  'billing-page',
  'feature-sets',
  'organizations',
  'subscriptions',
].map((name) => fileURLToPath(new URL(`./${name}.test.js`, import.meta.url)));

describe('the API tests on PostgreSQL', () => {
  let server: PostgresServer;
  before(async () => {
    server = await PostgresServer.start();
  });
  after(() => server?.stop());

  it('pass with every platform on its own PostgreSQL database', () => {
    // Without NODE_TEST_CONTEXT the child is a test run of its own, reporting TAP on stdout.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', '--test-concurrency=1', ...API_TESTS], {
      env: { ...env, [POSTGRES_ADMIN_URL_ENV]: server.adminUrl },
      encoding: 'utf8',
      timeout: 120_000,
    });
    const failures = run.stdout
      .split('\n')
      .filter((line) => /^\s*not ok|^# (pass|fail)/.test(line))
      .join('\n');
    assert.equal(run.status, 0, `${failures}\n${run.stderr}`);
    assert.match(run.stdout, /^# fail 0$/m);
  });
});
