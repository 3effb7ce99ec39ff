import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../../bin/ward-agent', import.meta.url));
const TOKEN = 'agent-token-never-logged-6612';

/** Starts `ward-agent agent -dev` with `args`; resolves with the child, its HTTP port and its log so far. */
function startAgent(args: string[]): Promise<{ child: ChildProcess; port: number; log: () => string }> {
  const child = spawn(
    process.execPath,
    [BIN, 'agent', '-dev', '-bind=127.0.0.1', '-http-port=0', '-rpc-port=0', '-serf-port=0', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const started = log.split('\n').find((l) => l.includes('agent: started'));
      const m = started === undefined ? null : /\bhttp"?[=:](\d+)/.exec(started);
      if (m) resolve({ child, port: Number(m[1]), log: () => log });
    });
    child.once('exit', (code) => reject(new Error(`agent exited with ${code}:\n${log}`)));
  });
}

/** Sends one request with a token, waits for its request line in the log, stops the agent and returns the log. */
async function requestLogOf(args: string[]): Promise<string> {
  const agent = await startAgent(['-log-level=debug', ...args]);
  const exited = new Promise((resolve) => agent.child.once('exit', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${agent.port}/v1/agent/self`, { headers: { 'X-Nomad-Token': TOKEN } });
    assert.equal(res.status, 200);
    await res.text();
    const isLogged = () =>
      agent
        .log()
        .split('\n')
        .some((l) => l.includes('http: request complete') && l.includes('/v1/agent/self'));
    while (!isLogged()) {
      await new Promise((resolve) => agent.child.stderr?.once('data', resolve));
    }
    return agent.log();
  } finally {
    agent.child.kill('SIGTERM');
    await exited;
  }
}

// Issue 21, point 7: ward-agent logs as ward and ward-platform do (pino underneath): one JSON
// object per line with -log-format=json (or the established -log-json), human lines otherwise,
// and never the token a request carried.
describe('ward-agent agent -log-format', () => {
  it('json writes JSON lines with level, time and message', async () => {
    for (const flag of ['-log-format=json', '-log-json']) {
      const log = await requestLogOf([flag]);
      const entries = log
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const e of entries) {
        assert.match(String(e['@level']), /^(trace|debug|info|warn|error)$/);
        assert.ok(!Number.isNaN(Date.parse(String(e['@timestamp']))));
        assert.equal(typeof e['@message'], 'string');
      }
      const request = entries.find((e) => e['@message'] === 'http: request complete' && e.path === '/v1/agent/self');
      assert.equal(request?.status, 200, log);
      assert.equal(log.includes(TOKEN), false, 'the token is in the log');
    }
  });

  it('standard writes human lines', async () => {
    const log = await requestLogOf(['-log-format=standard']);
    assert.match(
      log,
      /^\S+Z \[DEBUG\] http: request complete: @module=http method=GET path=\/v1\/agent\/self status=200/m,
    );
    assert.doesNotMatch(log, /^\{/m);
    assert.equal(log.includes(TOKEN), false, 'the token is in the log');
  });

  it('refuses another -log-format value as a usage error (2)', async () => {
    const child = spawn(process.execPath, [BIN, 'agent', '-dev', '-log-format=xml'], { stdio: 'pipe' });
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    assert.equal(code, 2);
    assert.match(err, /invalid value "xml" for flag -log-format: not one of standard, json/);
  });
});

// Issue 21, point 2: a bad config file is not a usage error (exit 1), as in ward and ward-platform.
describe('ward-agent agent -config with a bad file', () => {
  it('exits 1 with one line naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ward-agent-config-'));
    try {
      const file = join(dir, 'agent.hcl');
      writeFileSync(file, 'log_level = "loud"\n');
      for (const config of [file, join(dir, 'missing.hcl')]) {
        const child = spawn(process.execPath, [BIN, 'agent', `-config=${config}`], { stdio: 'pipe' });
        let err = '';
        child.stderr.on('data', (c: Buffer) => {
          err += c.toString();
        });
        const code = await new Promise((resolve) => child.once('exit', resolve));
        assert.equal(code, 1, err);
        assert.match(err, new RegExp(`^==> Error: .*${config.replace(/[.]/g, '\\.')}`));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
