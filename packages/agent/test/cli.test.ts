import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { list as listTar } from 'tar';
import { AgentProcess, waitUntil } from './harness.js';

const BIN = fileURLToPath(new URL('../../../../bin/ward-agent', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<Run> } {
  // Only what a user would have: no inherited NOMAD_*/WARD_AGENT_* from the test's environment.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(NOMAD_|WARD_AGENT_)/.test(k)));
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout?.on('data', (c: Buffer) => {
    run.stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    run.stderr += c.toString();
  });
  const done = new Promise<Run>((resolve) =>
    child.once('exit', (code) => {
      run.code = code;
      resolve(run);
    }),
  );
  return { child, done };
}

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => start(args, env).done;

// Issue 21 point 10: the agent CLI as the scheduler's users expect it, over the HTTP API.
describe('ward-agent CLI against a real agent', () => {
  let agent: AgentProcess;
  let dir = '';
  let env: NodeJS.ProcessEnv = {};
  let root = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-agent-cli-'));
    agent = await AgentProcess.start(['-dev', '-node=cli', '-acl-enabled']);
    await waitUntil('a leader', async () => (await agent.fetch('/v1/agent/health')).status === 200);
    env = { NOMAD_ADDR: agent.url };
  });

  after(async () => {
    await agent?.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('acl bootstrap prints the management token once, then fails with exit 1', async () => {
    const r = await cli(['acl', 'bootstrap'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Accessor ID {2}= [0-9a-f-]{36}\nSecret ID {4}= [0-9a-f-]{36}\nName {9}= Bootstrap Token\nType {9}= management\n/,
    );
    root = /Secret ID\s+= (\S+)/.exec(r.stdout)![1]!;
    const again = await cli(['acl', 'bootstrap'], env);
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /^Error running acl bootstrap: Unexpected response code: 400 \(ACL bootstrap already done/,
    );
  });

  it('acl policy apply, token create and token list, with the token from NOMAD_TOKEN or -token', async () => {
    const rules = join(dir, 'readers.hcl');
    await writeFile(rules, 'agent {\n  policy = "read"\n}\nnode {\n  policy = "read"\n}\n');
    const apply = await cli(['acl', 'policy', 'apply', '-description', 'read all', 'readers', rules], {
      ...env,
      NOMAD_TOKEN: root,
    });
    assert.deepEqual([apply.code, apply.stdout], [0, 'Successfully wrote "readers" ACL policy!\n']);
    const create = await cli(['acl', 'token', 'create', '-name=ops', '-policy', 'readers', `-token=${root}`], env);
    assert.equal(create.code, 0, create.stderr);
    assert.match(create.stdout, /Name\s+= ops\nType\s+= client\nGlobal\s+= false\nPolicies\s+= \[readers\]/);
    const opsSecret = /Secret ID\s+= (\S+)/.exec(create.stdout)![1]!;
    const list = await cli(['acl', 'token', 'list'], { ...env, WARD_AGENT_TOKEN: root });
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^Name\s+Type\s+Global\s+Accessor ID\s+Expired$/);
    assert.ok(
      lines.some((l) => /^ops\s+client\s+false\s+[0-9a-f-]{36}\s+false$/.test(l)),
      list.stdout,
    );
    assert.ok(!list.stdout.includes(opsSecret), 'no secret in the list');
    const denied = await cli(['acl', 'token', 'list', `-token=${opsSecret}`], env);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /403 \(Permission denied\)/);
  });

  it('server members marks the leader, and -address beats NOMAD_ADDR', async () => {
    const r = await cli(['server', 'members', `-address=${agent.url}`], {
      NOMAD_ADDR: 'http://127.0.0.1:1',
      NOMAD_TOKEN: root,
    });
    assert.equal(r.code, 0, r.stderr);
    const [header, row] = r.stdout.trimEnd().split('\n');
    assert.match(header!, /^Name\s+Address\s+Port\s+Status\s+Leader\s+Raft Version\s+Build\s+Datacenter\s+Region$/);
    assert.match(row!, /^cli\.global\s+127\.0\.0\.1\s+\d+\s+alive\s+true\s+3\s+0\.1\.0\s+dc1\s+global$/);
    const down = await cli(['server', 'members'], { NOMAD_ADDR: 'http://127.0.0.1:1' });
    assert.equal(down.code, 1);
    assert.match(down.stderr, /^Error running server members: GET http:\/\/127\.0\.0\.1:1\/v1\/agent\/members: /);
  });

  it('agent-info prints every stats section as key = value', async () => {
    const r = await cli(['agent-info'], { ...env, NOMAD_TOKEN: root });
    assert.equal(r.code, 0, r.stderr);
    for (const section of ['client', 'nomad', 'raft', 'runtime', 'serf'])
      assert.match(r.stdout, new RegExp(`^${section}$`, 'm'));
    assert.match(r.stdout, /^ {2}state\s+= Leader$/m);
  });

  it('monitor streams log lines at -log-level until interrupted', async () => {
    const m = start(['monitor', '-log-level=debug'], { ...env, NOMAD_TOKEN: root });
    let out = '';
    m.child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
    });
    // Any request logs a debug line on the agent.
    await waitUntil('a debug line', async () => {
      await agent.fetch('/v1/agent/health');
      return /\[DEBUG\] http: request complete/.test(out);
    });
    m.child.kill('SIGINT');
    assert.equal((await m.done).code, 0);
  });

  it('operator debug writes a tar.gz with self, members, host and profiles', async () => {
    const r = await cli(['operator', 'debug', `-output=${dir}`, '-pprof-duration=1s'], { ...env, NOMAD_TOKEN: root });
    assert.equal(r.code, 0, r.stderr);
    const archive = /Created debug archive: (\S+\.tar\.gz)/.exec(r.stdout)?.[1];
    assert.ok(archive, r.stdout);
    const entries: string[] = [];
    await listTar({ file: archive, onReadEntry: (e) => entries.push(e.path.split('/').slice(1).join('/')) });
    for (const f of ['agent-self.json', 'members.json', 'host.json', 'profile.prof', 'heap.prof', 'goroutine.prof'])
      assert.ok(entries.includes(f), `${f} in ${entries.join(',')}`);
    // Only the archive is left behind, not the folder it was made from.
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.startsWith('ward-agent-debug-')),
      [archive.split('/').pop()],
    );
  });

  // Issue 21 point 12: the flag style, duration parser and usage exit code all three binaries share.
  it('takes -flag=value, -flag value and --flag; refuses an unknown flag or a bad duration with exit 2', async () => {
    for (const address of [[`-address=${agent.url}`], ['-address', agent.url], ['--address', agent.url]]) {
      const r = await cli(['server', 'members', ...address, '-token', root], { NOMAD_ADDR: 'http://127.0.0.1:1' });
      assert.equal(r.code, 0, `${address.join(' ')}: ${r.stderr}`);
      assert.match(r.stdout, /^cli\.global\s/m);
    }
    const unknown = await cli(['server', 'members', '-bogus=1'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^Error: flag provided but not defined: -bogus\n\nUsage: ward-agent server members/);
    const debug = await cli(['operator', 'debug', '-pprof-duration', '1fortnight'], env);
    assert.equal(debug.code, 2);
    assert.match(
      debug.stderr,
      /^Error: invalid value "1fortnight" for flag -pprof-duration: unknown unit "fortnight" in duration "1fortnight"\n\nUsage: ward-agent operator debug/,
    );
    const run = await cli(['agent', '-dev', '-retry-interval=1fortnight']);
    assert.equal(run.code, 2);
    assert.match(
      run.stderr,
      /^Error: invalid value "1fortnight" for flag -retry-interval: unknown unit "fortnight" in duration "1fortnight"\n\nUsage: ward-agent agent/,
    );
    for (const command of [['agent', '-dev'], ['monitor']]) {
      const level = await cli([...command, '-log-level=loud'], env);
      assert.equal(level.code, 2, command.join(' '));
      assert.match(
        level.stderr,
        /^Error: invalid value "loud" for flag -log-level: not one of trace, debug, info, warn, error\n/,
      );
    }
    const negative = await cli(['agent', '-dev', '-retry-interval=-1s']);
    assert.equal(negative.code, 2);
    assert.match(negative.stderr, /durations cannot be negative/);
    for (const args of [[], ['-bogus'], ['frobnicate']]) {
      const r = await cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /^Error: .*\n\nUsage: ward-agent <command>/, args.join(' '));
    }
    assert.equal((await cli(['-help'])).code, 0);
  });

  it('answers -help on every command with usage and an example, and usage errors with exit 2', async () => {
    for (const cmd of [
      ['server', 'members'],
      ['agent-info'],
      ['monitor'],
      ['acl', 'bootstrap'],
      ['acl', 'policy', 'apply'],
      ['acl', 'token', 'create'],
      ['acl', 'token', 'list'],
      ['operator', 'debug'],
      ['agent'],
    ]) {
      const r = await cli([...cmd, '-help']);
      assert.equal(r.code, 0, cmd.join(' '));
      assert.match(r.stdout, new RegExp(`^Usage: ward-agent ${cmd.join(' ')}`), cmd.join(' '));
      assert.match(r.stdout, /Example:\n {2}.*ward-agent /, cmd.join(' '));
    }
    const bad = await cli(['acl', 'token', 'create', '-nope'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^Error: flag provided but not defined: -nope\n\nUsage: ward-agent acl token create/);
    const missing = await cli(['acl', 'policy', 'apply', 'only-name'], env);
    assert.equal(missing.code, 2);
    const unknown = await cli(['acl', 'frobnicate']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /ward-agent acl bootstrap/);
    const agentBad = await cli(['agent', '-nope']);
    assert.equal(agentBad.code, 2);
  });
});
