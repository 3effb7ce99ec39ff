import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, startCli, stop, waitForOutput } from './cli-process.js';

const TOKEN = 'platform-token-never-logged-5521';
const QUERY_SECRET = 'query-secret-never-logged-7730';

function runCli(args: string[]): { status: number | null; stderr: string } {
  const res = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { status: res.status, stderr: res.stderr };
}

/** Starts `serve -dev` with `args`, sends one request with a token and a secret in its query, stops. */
async function requestLogOf(args: string[]): Promise<string> {
  const cli = await startCli(['-dev', `-dev-token=${TOKEN}`, '-log-level=debug', ...args]);
  try {
    const res = await fetch(`${cli.url}/api/v2/feature-sets?password=${QUERY_SECRET}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(res.status, 200);
    await waitForOutput(cli.child, cli.output, /"@message":"request"|\] request: /);
    return cli.output();
  } finally {
    await stop(cli.child);
  }
}

// Issue 21, point 7: ward-platform offers the same log formats as ward (pino underneath): one JSON
// object per line, or human-readable lines; neither holds a token or a secret from a request.
describe('ward-platform serve -log-format', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ward-platform-log-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('-log-format=json writes JSON lines with level, time and message', async () => {
    const output = await requestLogOf(['-log-format=json']);
    const entries = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const request = entries.find((e) => e['@message'] === 'request');
    assert.ok(request, output);
    assert.equal(request['@level'], 'debug');
    assert.ok(!Number.isNaN(Date.parse(String(request['@timestamp']))));
    assert.equal(request.method, 'GET');
    assert.equal(request.path, '/api/v2/feature-sets');
    assert.equal(request.status, 200);
    assert.doesNotMatch(output, /\[(DEBUG|INFO)\]/);
    assert.equal(output.includes(TOKEN), false, 'the token is in the log');
    assert.equal(output.includes(QUERY_SECRET), false, 'the query string is in the log');
  });

  it('standard (the default, also log_format in the config file) writes human lines', async () => {
    const config = join(dir, 'standard.hcl');
    writeFileSync(config, 'log_format = "standard"\n');
    for (const args of [[], [`-config=${config}`]]) {
      const output = await requestLogOf(args);
      assert.match(
        output,
        /^\S+Z \[DEBUG\] request: method=GET path=\/api\/v2\/feature-sets status=200 duration_ms=\d+$/m,
      );
      assert.equal(output.includes(TOKEN), false, 'the token is in the log');
      assert.equal(output.includes(QUERY_SECRET), false, 'the query string is in the log');
    }
  });

  it('a bad value in the config file exits 1 naming the key and line; a bad flag value is a usage error (2)', () => {
    const config = join(dir, 'bad.hcl');
    writeFileSync(config, 'edition = "hosted"\nlog_format = "jsn"\n');
    const bad = runCli(['serve', `-config=${config}`]);
    assert.equal(bad.status, 1);
    assert.equal(bad.stderr, `Error: ${config}:2: log_format must be standard or json\n`);

    writeFileSync(config, 'rate_limit = 0\n');
    const badRate = runCli(['serve', `-config=${config}`]);
    assert.equal(badRate.status, 1);
    assert.equal(badRate.stderr, `Error: ${config}:1: rate_limit must be a whole number from 1 to 9999999\n`);

    const flag = runCli(['serve', '-log-format=xml']);
    assert.equal(flag.status, 2);
    assert.match(flag.stderr, /^Error: invalid value "xml" for flag -log-format: not one of standard, json/);
  });
});
