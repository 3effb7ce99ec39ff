import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AgentProcess, FAST_GOSSIP, waitUntil } from './harness.js';

// Issue 23 point 2: ACL state was lost on restart, so anyone could bootstrap again.
describe('ACL state under -data-dir', () => {
  let dir = '';
  const running: AgentProcess[] = [];
  after(async () => {
    await Promise.all(running.map((a) => a.kill()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const a = await AgentProcess.start([
      '-server',
      '-node=p1',
      '-bootstrap-expect=1',
      '-acl-enabled',
      `-data-dir=${dir}`,
      ...FAST_GOSSIP,
    ]);
    running.push(a);
    await waitUntil('a leader', async () => (await a.fetch('/v1/agent/health')).status === 200);
    return a;
  };

  it('keeps the bootstrap state, policies and tokens across a SIGKILL and restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ward-agent-acl-'));
    const first = await start();
    const root = (await first.json<{ SecretID: string }>('/v1/acl/bootstrap', { method: 'POST' })).SecretID;
    const put = await first.fetch('/v1/acl/policy/ops', {
      method: 'POST',
      token: root,
      body: JSON.stringify({ Rules: 'agent {\n  policy = "read"\n}' }),
    });
    assert.equal(put.status, 200);
    const ops = await first.json<{ SecretID: string }>('/v1/acl/token', {
      method: 'POST',
      token: root,
      body: JSON.stringify({ Name: 'ops', Policies: ['ops'] }),
    });
    const term = Number(
      (await first.json<{ stats: Record<string, Record<string, string>> }>('/v1/agent/self', { token: root })).stats
        .raft?.term,
    );
    await first.kill('SIGKILL');

    const second = await start();
    const again = await second.fetch('/v1/acl/bootstrap', { method: 'POST' });
    assert.equal(again.status, 400);
    assert.match(await again.text(), /^ACL bootstrap already done/);
    assert.equal((await second.fetch('/v1/agent/self', { token: ops.SecretID })).status, 200);
    assert.equal(
      (await second.fetch('/v1/agent/force-leave?node=x', { method: 'POST', token: ops.SecretID })).status,
      403,
    );
    assert.equal((await second.fetch('/v1/acl/policy/ops', { token: root })).status, 200);
    // The term was kept too: the restarted server's first election is a later term.
    const raft = (
      await second.json<{ stats: Record<string, Record<string, string>> }>('/v1/agent/self', { token: root })
    ).stats.raft;
    assert.ok(Number(raft?.term) > term);
    assert.equal((await stat(join(dir, 'acl', 'state.json'))).mode & 0o777, 0o600);
  });
});
