import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { list as listTar } from 'tar';
import { AgentProcess, FAST_GOSSIP, runCli, statuses, waitUntil } from './harness.js';

// Issue 35 point 3: the established scheduler CLI's everyday commands, through bin/ward-agent.
describe('ward-agent server join, force-leave, raft list-peers, status, acl policy list, acl token self', () => {
  let s1: AgentProcess;
  let s2: AgentProcess | undefined;
  let dir = '';
  let env: NodeJS.ProcessEnv = {};
  let root = '';
  const server = (name: string) =>
    AgentProcess.start(['-server', `-node=${name}`, '-bootstrap-expect=2', '-acl-enabled', ...FAST_GOSSIP]);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-agent-cli-scheduler-'));
    [s1, s2] = await Promise.all([server('s1'), server('s2')]);
    env = { NOMAD_ADDR: s1.url };
  });

  after(async () => {
    await Promise.all([s1?.kill(), s2?.kill()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('server join joins the other server and says how many; an unreachable one fails with exit 1', async () => {
    const r = await runCli(['server', 'join', s2!.serfAddr], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Joined 1 servers successfully\n');
    const bad = await runCli(['server', 'join', '127.0.0.1:1'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^Error joining: 1 error occurred:\n\t\* failed to join 127\.0\.0\.1:1/);
    const none = await runCli(['server', 'join'], env);
    assert.equal(none.code, 2);
  });

  it('operator raft list-peers lists both servers, one leader, both voters', async () => {
    await waitUntil('a leader', async () => (await s1.json<string>('/v1/status/leader')) !== '', 15_000);
    await waitUntil('a second peer', async () => (await s1.json<string[]>('/v1/status/peers')).length === 2, 15_000);
    const boot = await runCli(['acl', 'bootstrap'], env);
    assert.equal(boot.code, 0, boot.stderr);
    root = /Secret ID\s+= (\S+)/.exec(boot.stdout)![1]!;
    const r = await runCli(['operator', 'raft', 'list-peers', `-token=${root}`], env);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    assert.match(header!, /^Node +ID +Address +State +Voter +RaftProtocol$/);
    assert.equal(rows.length, 2);
    assert.deepEqual(rows.map((l) => l.split(/ +/)[0]).sort(), ['s1.global', 's2.global']);
    assert.deepEqual(rows.map((l) => l.split(/ +/)[3]).sort(), ['follower', 'leader']);
    for (const row of rows) assert.match(row, / 127\.0\.0\.1:\d+ +(leader|follower) +true +3$/);
    const denied = await runCli(['operator', 'raft', 'list-peers'], env);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /403/);
  });

  it('acl policy list says none, then lists name and description; acl token self shows the token', async () => {
    const empty = await runCli(['acl', 'policy', 'list', `-token=${root}`], env);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, 'No policies found\n');
    const rules = join(dir, 'readers.hcl');
    await writeFile(rules, 'agent {\n  policy = "read"\n}\n');
    const applied = await runCli(
      ['acl', 'policy', 'apply', `-token=${root}`, '-description=read it', 'readers', rules],
      env,
    );
    assert.equal(applied.code, 0, applied.stderr);
    const listed = await runCli(['acl', 'policy', 'list', `-token=${root}`], env);
    assert.equal(listed.stdout, 'Name     Description\nreaders  read it\n');
    const self = await runCli(['acl', 'token', 'self'], { ...env, NOMAD_TOKEN: root });
    assert.equal(self.code, 0, self.stderr);
    assert.match(
      self.stdout,
      /^Accessor ID {2}= [0-9a-f-]{36}\nSecret ID {4}= (\S+)\nName {9}= Bootstrap Token\nType {9}= management\n/,
    );
    assert.ok(self.stdout.includes(root));
    const nobody = await runCli(['acl', 'token', 'self', '-token=00000000-0000-0000-0000-000000000000'], env);
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /ACL token not found/);
  });

  it('status answers that no jobs run (the agent is asked first: one that is down fails)', async () => {
    const r = await runCli(['status'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'No running jobs\n');
    const down = await runCli(['status', '-address=http://127.0.0.1:1'], {});
    assert.equal(down.code, 1);
  });

  it('operator debug -duration -interval -server-id=all captures every server and its log', async () => {
    const out = join(dir, 'debug');
    const r = await runCli(
      ['operator', 'debug', '-duration=3s', '-interval=1s', '-server-id=all', `-output=${out}`, `-token=${root}`],
      env,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Capturing server s1\.global\nCapturing server s2\.global\n/);
    const archive = /Created debug archive: (\S+)/.exec(r.stdout)![1]!;
    const entries: string[] = [];
    await listTar({ file: archive, onReadEntry: (e) => entries.push(e.path.split('/').slice(1).join('/')) });
    for (const s of ['s1.global', 's2.global']) {
      for (const f of ['host.json', 'profile.prof', 'heap.prof', 'goroutine.prof', 'monitor.log'])
        assert.ok(entries.includes(`server/${s}/${f}`), `server/${s}/${f} in ${entries.join(',')}`);
    }
    for (const n of ['0000', '0001', '0002', '0003']) assert.ok(entries.includes(`interval/${n}/members.json`), n);
    assert.ok(!entries.some((e) => e.startsWith('interval/0004')), 'four snapshots in 3s at 1s');
    assert.ok(!entries.some((e) => e.endsWith('.error')), entries.join(','));
    const bad = await runCli(['operator', 'debug', '-duration=2s', '-interval=5s'], env);
    assert.equal(bad.code, 2);
  });

  it('server force-leave turns a failed server left', async () => {
    await s2!.kill();
    await waitUntil('s2 failed', async () => (await statuses(s1, root))['s2.global'] === 'failed', 15_000);
    const denied = await runCli(['server', 'force-leave', 's2.global'], env);
    assert.equal(denied.code, 1);
    assert.match(denied.stderr, /^Error force-leaving server s2\.global: .*403/);
    const r = await runCli(['server', 'force-leave', `-token=${root}`, 's2.global'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    await waitUntil('s2 left', async () => (await statuses(s1, root))['s2.global'] === 'left', 10_000);
  });
});

describe('ward-agent node status', () => {
  let agent: AgentProcess;
  before(async () => {
    agent = await AgentProcess.start(['-dev', '-node=n1', '-dc=dc7', '-heartbeat-interval=200ms']);
  });
  after(async () => {
    await agent?.kill();
  });

  it('lists the registered client nodes with the established columns, and shows one by ID prefix or name', async () => {
    const env = { NOMAD_ADDR: agent.url };
    await waitUntil('a registered node', async () => (await agent.json<unknown[]>('/v1/nodes')).length === 1, 10_000);
    const self = await agent.json<{ member: { Tags: Record<string, string> } }>('/v1/agent/self');
    const id = self.member.Tags.id!;
    const r = await runCli(['node', 'status'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      `ID        Node Pool  DC   Name  Class   Drain  Eligibility  Status\n${id.slice(0, 8)}  default    dc7  n1    <none>  false  eligible     ready\n`,
    );
    const one = await runCli(['node', 'status', id.slice(0, 4)], env);
    assert.equal(one.code, 0, one.stderr);
    assert.match(
      one.stdout,
      new RegExp(`^ID +(= ${id})\nName += n1\nNode Pool += default\nClass += <none>\nDC += dc7\n`),
    );
    assert.equal((await runCli(['node', 'status', 'n1'], env)).code, 0);
    const none = await runCli(['node', 'status', 'zzzz'], env);
    assert.equal(none.code, 1);
    assert.equal(none.stderr, 'No node(s) with prefix "zzzz" found\n');
  });
});
