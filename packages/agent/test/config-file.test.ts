import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AGENT_FLAGS } from '../src/config/flags.js';
import { AgentProcess, runCli } from './harness.js';

// Issue 35 point 3: the agent's config file is as strict as the secrets server's.
describe('ward-agent agent -config: unknown and inert keys', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-agent-strict-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('names every unknown key with its line and the nearest known key, and exits 1', async () => {
    const file = join(dir, 'typos.hcl');
    await writeFile(
      file,
      'datacentre = "dc9"\nserver {\n  enabled = true\n  bootstrap_expected = 1\n}\nfrobnicate {}\n',
    );
    const r = await runCli(['agent', `-config=${file}`]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      r.stderr,
      `==> Error:\n${file}:1: unknown key "datacentre" at the top level; did you mean "datacenter"?\n` +
        `${file}:4: unknown key "bootstrap_expected" in server; did you mean "bootstrap_expect"?\n` +
        `${file}:6: unknown key "frobnicate" at the top level\n`,
    );
  });

  it('starts with an established telemetry block, warning once with its line that it has no effect', async () => {
    const file = join(dir, 'telemetry.hcl');
    await writeFile(file, 'datacenter = "dc9"\ntelemetry {\n  collection_interval = "1s"\n}\n');
    const agent = await AgentProcess.start(['-dev', `-config=${file}`]);
    try {
      assert.match(
        agent.logs,
        new RegExp(`==> Warning: ${file.replace(/[.]/g, '\\.')}:2: "telemetry" at the top level has no effect in Ward`),
      );
      const self = await agent.json<{ config: { Datacenter: string } }>('/v1/agent/self');
      assert.equal(self.config.Datacenter, 'dc9');
    } finally {
      await agent.kill();
    }
  });
});

// Issue 35 point 3: `agent -help` lists every flag with what it does.
describe('ward-agent agent -help', () => {
  it('describes exactly the flags the agent takes, each with its text', async () => {
    const r = await runCli(['agent', '-help']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Usage: ward-agent agent \[options\]\n/);
    assert.doesNotMatch(r.stdout, /README/);
    const shown = [...r.stdout.matchAll(/^ {2}-([a-z-]+)(?:=\S+)?\n {4}\S.*$/gm)].map((m) => m[1]);
    assert.deepEqual([...shown].sort(), [...AGENT_FLAGS.keys()].sort());
    assert.match(
      r.stdout,
      /^ {2}-retry-interval=<duration>\n {4}The longest wait between join attempts\. Default 30s\.$/m,
    );
  });

  it('answers a bad flag with one line and where the flags are listed, exit 2', async () => {
    const r = await runCli(['agent', '-bogus']);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'Error: flag provided but not defined: -bogus\n\nUsage: ward-agent agent [options]\n\nRun "ward-agent agent -help" for every flag.\n',
    );
  });
});
