import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runWard } from '../src/cli/testing.js';
import { startDevWard, startWard, type WardProcess } from './ward-process.js';

const ROOT_TOKEN = 'hvs.JsonRootTokenNeverLogged9931';
const SECRET_VALUE = 'JsonS3cretNeverLogged2207';

/** The lines of `output` that are JSON log entries, parsed. */
function jsonLines(output: string): Array<Record<string, unknown>> {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

// Issue 21, point 7: `-log-format=json` (or `log_format = "json"`) makes every log line one JSON
// object with level, time and message; the request log stays free of tokens and secrets.
describe('ward server -log-format=json', () => {
  let server: WardProcess;
  let limitedToken = '';
  before(async () => {
    const dev = await startDevWard(ROOT_TOKEN, ['-log-level=debug', '-log-format=json']);
    server = dev.ward;
    const env = dev.env;
    assert.equal((await runWard(['kv', 'put', 'secret/app', `password=${SECRET_VALUE}`], env)).code, 0);
    limitedToken = (await runWard(['token', 'create', '-policy=default', '-field=token'], env)).stdout.trim();
    assert.equal((await runWard(['read', 'secret/data/app'], { ...env, VAULT_TOKEN: limitedToken })).code, 2);
    await server.waitFor(/permission denied/);
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('writes every log line as a JSON object with level, time and message, and no human line', () => {
    const entries = jsonLines(server.output());
    assert.ok(entries.length >= 3, server.output());
    for (const e of entries) {
      assert.match(String(e['@level']), /^(trace|debug|info|warn|error)$/);
      assert.ok(!Number.isNaN(Date.parse(String(e['@timestamp']))), JSON.stringify(e));
      assert.equal(typeof e['@message'], 'string');
    }
    assert.doesNotMatch(server.output(), /^\S+ \[(TRACE|DEBUG|INFO|WARN|ERROR)\]/m);
    const put = entries.find((e) => e['@message'] === 'request' && e.method === 'PUT');
    assert.equal(put?.path, '/v1/secret/data/app');
    assert.equal(put?.status, 200);
    assert.equal(put?.['@level'], 'debug');
    const denial = entries.find((e) => e['@message'] === 'permission denied');
    assert.equal(denial?.['@level'], 'info');
    assert.equal(denial?.path, 'secret/data/app');
  });

  it('never writes a token or a secret value', () => {
    const log = server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .join('\n');
    assert.equal(log.includes(ROOT_TOKEN), false, 'the root token is in the log');
    assert.equal(log.includes(limitedToken), false, 'a token is in the log');
    assert.equal(log.includes(SECRET_VALUE), false, 'a secret value is in the log');
  });
});

describe('log_format in the server and proxy config files', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-log-format-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const listener = 'listener "tcp" {\n  address = "127.0.0.1:0"\n  tls_disable = true\n}\n';

  it('refuses a log_format other than standard or json, naming the key and its line (exit 1)', async () => {
    const file = join(dir, 'bad.hcl');
    await writeFile(file, `storage "inmem" {}\n${listener}log_format = "jsn"\n`);
    const ward = startWard(['server', `-config=${file}`]);
    assert.equal(await ward.exited, 1);
    assert.equal(ward.output(), `Error: ${file}:6: log_format must be "standard" or "json", got "jsn"\n`);

    const proxyFile = join(dir, 'proxy.hcl');
    await writeFile(proxyFile, `vault {\n  address = "http://127.0.0.1:1"\n}\n${listener}log_format = "text"\n`);
    const proxy = startWard(['proxy', `-config=${proxyFile}`]);
    assert.equal(await proxy.exited, 1);
    assert.equal(proxy.output(), `Error: ${proxyFile}:8: log_format must be "standard" or "json", got "text"\n`);
  });

  it('refuses a -log-format flag value other than standard or json as a usage error (exit 2)', async () => {
    const ward = startWard(['server', '-dev', '-log-format=xml']);
    assert.equal(await ward.exited, 2);
    assert.match(ward.output(), /^Error: invalid value "xml" for flag -log-format: not one of standard, json/);
  });

  it('log_requests = true writes each request at info, without -log-level=debug', async () => {
    const file = join(dir, 'requests.hcl');
    await writeFile(file, `storage "inmem" {}\n${listener}log_requests = true\n`);
    const ward = startWard(['server', `-config=${file}`]);
    try {
      const [, url] = await ward.waitFor(/\[INFO\] listening: url=(\S+)/);
      const res = await fetch(`${url}/v1/sys/seal-status`, { headers: { 'X-Vault-Token': ROOT_TOKEN } });
      assert.equal(res.status, 200);
      await ward.waitFor(/\[INFO\] request: .*method=GET path=\/v1\/sys\/seal-status status=200/);
      assert.equal(ward.output().includes(ROOT_TOKEN), false, 'the token is in the log');
    } finally {
      ward.child.kill('SIGTERM');
      await ward.exited;
    }
  });

  it('writes JSON lines with log_format = "json", and human lines with "standard"', async () => {
    for (const [format, pattern] of [
      ['json', /^\{"@level":"info","@timestamp":"[^"]+","url":"http:\/\/127\.0\.0\.1:\d+","@message":"listening"\}$/m],
      ['standard', /^\d{4}-\d\d-\d\dT[\d:.]+Z \[INFO\] listening: url=http:\/\/127\.0\.0\.1:\d+$/m],
    ] as const) {
      const file = join(dir, `${format}.hcl`);
      await writeFile(file, `storage "inmem" {}\n${listener}log_format = "${format}"\n`);
      const ward = startWard(['server', `-config=${file}`]);
      try {
        await ward.waitFor(pattern);
      } finally {
        ward.child.kill('SIGTERM');
        await ward.exited;
      }
    }
  });
});
