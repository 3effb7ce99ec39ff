import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { splitFrames } from '../src/monitor/framer.js';
import { AgentProcess, collect, FAST_GOSSIP, statuses, waitUntil } from './harness.js';

// Issue 8 "Done when": three servers and a client on loopback form a pool, detect a
// SIGKILLed server as failed, force-leave it to left, take it back on restart, and the
// client's server list is replaced by POST /v1/agent/servers.
describe('a three-server pool with a client', () => {
  const agents: AgentProcess[] = [];
  let s1: AgentProcess;
  let s2: AgentProcess;
  let s3: AgentProcess;
  let client: AgentProcess;
  const server = (name: string, join?: string) =>
    AgentProcess.start([
      '-server',
      `-node=${name}`,
      '-bootstrap-expect=3',
      '-enable-debug',
      ...(join ? [`-join=${join}`] : []),
      ...FAST_GOSSIP,
    ]);

  before(async () => {
    s1 = await server('s1');
    s2 = await server('s2', s1.serfAddr);
    s3 = await server('s3', s1.serfAddr);
    client = await AgentProcess.start([
      '-client',
      '-node=c1',
      `-servers=${s1.rpcAddr}`,
      '-enable-debug',
      ...FAST_GOSSIP,
    ]);
    agents.push(s1, s2, s3, client);
  });

  after(async () => {
    await Promise.all(agents.map((a) => a.kill()));
  });

  it('forms one pool in which every server sees all three alive', async () => {
    const all = { 's1.global': 'alive', 's2.global': 'alive', 's3.global': 'alive' };
    for (const s of [s1, s2, s3])
      await waitUntil('pool to form', async () => assert.deepEqual(await statuses(s), all) ?? true);
    const body = await s2.json<{
      ServerName: string;
      ServerRegion: string;
      ServerDC: string;
      Members: Array<Record<string, unknown>>;
    }>('/v1/agent/members');
    assert.equal(body.ServerName, 's2');
    assert.equal(body.ServerRegion, 'global');
    assert.equal(body.ServerDC, 'dc1');
    const m = body.Members.find((x) => x.Name === 's1.global')!;
    assert.equal(m.Addr, '127.0.0.1');
    assert.equal(m.Port, s1.ports.serf);
    assert.deepEqual(
      { ...(m.Tags as Record<string, string>), id: 'x' },
      {
        role: 'nomad',
        region: 'global',
        dc: 'dc1',
        build: '0.1.0',
        revision: '',
        vsn: '1',
        raft_vsn: '3',
        id: 'x',
        rpc_addr: '127.0.0.1',
        port: String(s1.ports.rpc),
        expect: '3',
      },
    );
    assert.deepEqual(
      [m.ProtocolMin, m.ProtocolMax, m.ProtocolCur, m.DelegateMin, m.DelegateMax, m.DelegateCur],
      [1, 5, 2, 2, 5, 4],
    );
  });

  it('lets a client list the members through its server', async () => {
    await waitUntil('client view', async () => Object.keys(await statuses(client)).length === 3);
  });

  it('reports a healthy leader and the peer set in self', async () => {
    await waitUntil('health', async () => (await s3.fetch('/v1/agent/health')).status === 200);
    assert.deepEqual(await s3.json('/v1/agent/health'), { server: { ok: true, message: 'ok' } });
    type Self = { stats: Record<string, Record<string, string>>; member: { Name: string } };
    let self: Self = await s2.json<Self>('/v1/agent/self');
    // Raft picks the leader: any of the three, the same one /v1/status/leader names.
    await waitUntil('self and status to name the same leader', async () => {
      self = await s2.json<Self>('/v1/agent/self');
      return self.stats.nomad?.leader_addr === (await s2.json<string>('/v1/status/leader'));
    });
    assert.equal(self.member.Name, 's2.global');
    assert.equal(self.stats.raft?.num_peers, '2');
    assert.ok([s1, s2, s3].some((s) => s.rpcAddr === self.stats.nomad?.leader_addr));
    assert.equal(self.stats.serf?.members, '3');
    assert.match(self.stats.raft?.latest_configuration ?? '', new RegExp(`Address:${s3.rpcAddr}`));
  });

  it('turns a SIGKILLed server failed, and force-leave turns it left and drops the peer', async () => {
    await s3.kill('SIGKILL');
    for (const s of [s1, s2])
      await waitUntil('s3 failed', async () => (await statuses(s))['s3.global'] === 'failed', 10_000);
    const res = await s1.fetch('/v1/agent/force-leave?node=s3.global', { method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
    for (const s of [s1, s2])
      await waitUntil('s3 left', async () => (await statuses(s))['s3.global'] === 'left', 10_000);
    const self = await s1.json<{ stats: Record<string, Record<string, string>> }>('/v1/agent/self');
    assert.equal(self.stats.raft?.num_peers, '1');
    assert.doesNotMatch(self.stats.raft?.latest_configuration ?? '', new RegExp(s3.rpcAddr));
    assert.equal(self.stats.serf?.left, '1');
    // The force-leave intent advanced the Lamport clock.
    assert.ok(Number(self.stats.serf?.member_time) > 0);
    assert.equal(self.stats.nomad?.known_regions, '1');
  });

  it('takes a restarted server back as alive', async () => {
    s3 = await AgentProcess.start(
      ['-server', '-node=s3', '-bootstrap-expect=3', '-enable-debug', `-join=${s1.serfAddr}`, ...FAST_GOSSIP],
      {
        ports: s3.ports,
      },
    );
    agents.push(s3);
    for (const s of [s1, s2, s3])
      await waitUntil('s3 alive again', async () => (await statuses(s))['s3.global'] === 'alive', 10_000);
  });

  it("replaces the client's server list, keeping only servers that answer", async () => {
    assert.deepEqual(await client.json('/v1/agent/servers'), [s1.rpcAddr]);
    const res = await client.fetch(
      `/v1/agent/servers?address=${s2.rpcAddr}&address=${s3.rpcAddr}&address=127.0.0.1:1`,
      { method: 'POST' },
    );
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
    assert.deepEqual(await client.json('/v1/agent/servers'), [s2.rpcAddr, s3.rpcAddr].sort());
    const none = await client.fetch('/v1/agent/servers?address=127.0.0.1:1', { method: 'PUT' });
    assert.equal(none.status, 400);
    const missing = await client.fetch('/v1/agent/servers', { method: 'POST' });
    assert.deepEqual([missing.status, await missing.text()], [400, 'missing server address']);
    const self = await client.json<{ stats: Record<string, Record<string, string>>; member: { Status: string } }>(
      '/v1/agent/self',
    );
    assert.equal(self.stats.client?.known_servers, [s2.rpcAddr, s3.rpcAddr].sort().join(','));
    assert.equal(self.member.Status, 'none');
    assert.deepEqual(self.stats.raft, { enabled: 'false', state: 'none' });
  });

  it('joins by address, counting each success, and reports failures in `error`', async () => {
    const ok = await s2.json<{ num_joined: number; error: string }>(
      `/v1/agent/join?address=${s1.serfAddr}&address=${s1.serfAddr}`,
      {
        method: 'PUT',
      },
    );
    assert.deepEqual(ok, { num_joined: 2, error: '' });
    const bad = await s2.json<{ num_joined: number; error: string }>('/v1/agent/join?address=127.0.0.1:1', {
      method: 'POST',
    });
    assert.equal(bad.num_joined, 0);
    assert.match(bad.error, /failed to join 127\.0\.0\.1:1/);
    const missing = await s2.fetch('/v1/agent/join', { method: 'POST' });
    assert.deepEqual([missing.status, await missing.text()], [400, 'missing address to join']);
  });

  it('answers 501 for endpoints of the other agent kind, 405 for wrong verbs, 400 for bad input', async () => {
    for (const [agent, path, method] of [
      [s1, '/v1/agent/servers', 'GET'],
      [client, '/v1/agent/join?address=x', 'POST'],
      [client, '/v1/agent/force-leave?node=x', 'POST'],
    ] as const) {
      const res = await agent.fetch(path, { method });
      assert.deepEqual([res.status, await res.text()], [501, 'Invalid method'], path);
    }
    const wrong = await s1.fetch('/v1/agent/members', { method: 'POST' });
    assert.deepEqual(
      [wrong.status, await wrong.text(), wrong.headers.get('content-type')],
      [405, 'Invalid method', 'text/plain; charset=utf-8'],
    );
    const noNode = await s1.fetch('/v1/agent/force-leave', { method: 'POST' });
    assert.deepEqual([noNode.status, await noNode.text()], [400, 'missing node to force leave']);
    const badPrune = await s1.fetch('/v1/agent/force-leave?node=x&prune=maybe', { method: 'POST' });
    assert.deepEqual([badPrune.status, await badPrune.text()], [400, 'invalid prune value']);
    // Issue 23 point 7: pruning an alive server erased it everywhere and left no leader.
    const pruneAlive = await s1.fetch('/v1/agent/force-leave?node=s2.global&prune=true', { method: 'POST' });
    assert.equal(pruneAlive.status, 400);
    assert.match(await pruneAlive.text(), /^cannot prune alive member s2\.global/);
    assert.equal((await statuses(s1))['s2.global'], 'alive');
  });

  it('forwards host, monitor and pprof to a server by server_id and to a client by node_id', async () => {
    const hostFromServer = await s1.json<{ AgentID: string; HostData: { OS: string } }>('/v1/agent/host?server_id=s2');
    assert.equal(hostFromServer.AgentID, 's2.global');
    assert.match(hostFromServer.HostData.OS, /Linux/);
    const clientSelf = await client.json<{ stats: Record<string, Record<string, string>> }>('/v1/agent/self');
    const nodeId = clientSelf.stats.client?.node_id ?? '';
    await waitUntil(
      'client registered',
      async () => (await s2.fetch(`/v1/agent/host?node_id=${nodeId}`)).status === 200,
    );
    const viaNode = await s2.json<{ AgentID: string }>(`/v1/agent/host?node_id=${nodeId}`);
    assert.equal(viaNode.AgentID, nodeId);
    const both = await s1.fetch(`/v1/agent/host?node_id=${nodeId}&server_id=s2`);
    assert.deepEqual([both.status, await both.text()], [400, 'Can only forward to either client node or server']);
    const viaClient = await s3.fetch(`/v1/agent/pprof/cmdline?node_id=${nodeId}`);
    assert.match(await viaClient.text(), /-node=c1/);
    const cmd = await s1.fetch('/v1/agent/pprof/cmdline?server_id=leader');
    assert.equal(cmd.status, 200);
    const leaderAddr = await s1.json<string>('/v1/status/leader');
    const leaderName = ['s1', 's2', 's3'][[s1, s2, s3].findIndex((s) => s.rpcAddr === leaderAddr)];
    assert.match(await cmd.text(), new RegExp(`-node=${leaderName}\0`));
    const cmd2 = await client.fetch('/v1/agent/pprof/cmdline?server_id=s3');
    assert.match(await cmd2.text(), /-node=s3/);
    const unknown = await s1.fetch('/v1/agent/monitor?server_id=nope');
    assert.deepEqual([unknown.status, await unknown.text()], [400, 'unknown nomad server nope']);
    const unknownPprof = await s1.fetch('/v1/agent/pprof/cmdline?server_id=nope');
    assert.equal(unknownPprof.status, 500);
  });

  it('streams another server’s log through server_id', async () => {
    const ac = new AbortController();
    const res = await s1.fetch('/v1/agent/monitor?server_id=s2&log_level=debug&plain=true', { signal: ac.signal });
    assert.equal(res.status, 200);
    const stream = collect(res, ac.signal);
    try {
      await waitUntil('s2 log line', async () => {
        await s2.fetch('/v1/agent/health');
        return /\[DEBUG\] http: request complete: .*path=\/v1\/agent\/health/.test(stream.text);
      });
    } finally {
      ac.abort();
    }
  });

  it('streams a client’s log through node_id', async () => {
    const nodeId = (await client.json<{ stats: Record<string, Record<string, string>> }>('/v1/agent/self')).stats.client
      ?.node_id;
    const ac = new AbortController();
    const res = await s3.fetch(`/v1/agent/monitor?node_id=${nodeId}&log_level=debug`, { signal: ac.signal });
    assert.equal(res.status, 200);
    const stream = collect(res, ac.signal);
    const decoded = () =>
      splitFrames(stream.text)
        .map((f) => Buffer.from(f.Data ?? '', 'base64').toString())
        .join('');
    try {
      await waitUntil('client log line', async () => {
        await client.fetch('/v1/agent/servers');
        return /\[DEBUG\] http: request complete: .*path=\/v1\/agent\/servers/.test(decoded());
      });
    } finally {
      ac.abort();
    }
  });

  it('leaves gracefully on SIGTERM: the others see it left, and it exits 0', async () => {
    assert.equal(await s2.kill('SIGTERM'), 0);
    for (const s of [s1, s3])
      await waitUntil('s2 left', async () => (await statuses(s))['s2.global'] === 'left', 10_000);
  });
});
