import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from '../../agent.js';
import type { ConfigLayer } from '../../config/config.js';
import { MemoryAgentNetwork, type MemoryRequest } from '../../testing.js';

const policy = (agent: string | undefined, node: string | undefined) =>
  JSON.stringify({
    Rules: `${agent ? `agent {\n  policy = "${agent}"\n}\n` : ''}${node ? `node {\n  policy = "${node}"\n}\n` : ''}`,
  });

/** An agent on `network` with `fetch(path)` over its HTTP; every answer waits on fake time (a write waits on Raft). */
interface On {
  agent: Agent;
  fetch(path: string, init?: MemoryRequest): Promise<Response>;
}

async function start(network: MemoryAgentNetwork, name: string, layer: ConfigLayer): Promise<On> {
  const agent = await network.startAgent(name, layer);
  return { agent, fetch: (path, init) => network.settle(network.fetch(network.url(agent, path), init)) };
}

const gossipAddr = (a: Agent) => `${a.gossip!.local.addr}:${a.gossip!.local.port}`;

// Two servers and a client, all in memory on one fake clock (the real HTTP, RPC framing and Raft).
describe('ACLs across two servers and a client', () => {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  let s1: On;
  let s2: On;
  let client: On;
  let root: string;

  const makeToken = async (via: On, name: string, policies: string[]): Promise<string> => {
    const res = await via.fetch('/v1/acl/token', {
      method: 'POST',
      token: root,
      body: JSON.stringify({ Name: name, Policies: policies }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { SecretID: string }).SecretID;
  };

  before(async () => {
    const acl = { acl: { enabled: true } };
    s1 = await start(network, 'a', { ...acl, server: { enabled: true, bootstrapExpect: 2 } });
    s2 = await start(network, 'b', {
      ...acl,
      server: { enabled: true, bootstrapExpect: 2 },
      join: [gossipAddr(s1.agent)],
    });
    client = await start(network, 'c', {
      ...acl,
      server: { enabled: false },
      client: { enabled: true, servers: [s1.agent.rpcAddress] },
    });
    await network.run(10_000, () => s1.agent.leader() !== undefined && s2.agent.leader() !== undefined);
    assert.ok(s1.agent.leader(), 'a leader');
  });

  after(async () => {
    await Promise.all([s1, s2, client].map((a) => a?.agent.stop(false)));
  });

  it('bootstraps once, through a follower, and the token works on every agent', async () => {
    const res = await s2.fetch('/v1/acl/bootstrap', { method: 'POST' });
    assert.equal(res.status, 200);
    const token = (await res.json()) as { SecretID: string; Type: string; AccessorID: string };
    assert.equal(token.Type, 'management');
    root = token.SecretID;
    const again = await s1.fetch('/v1/acl/bootstrap', { method: 'POST' });
    assert.equal(again.status, 400);
    assert.match(await again.text(), /^ACL bootstrap already done/);
    for (const a of [s1, s2, client]) assert.equal((await a.fetch('/v1/agent/self', { token: root })).status, 200);
  });

  it('denies anonymous requests without an anonymous policy, but not health and join', async () => {
    assert.deepEqual(await textOf(s1.fetch('/v1/agent/members')), [403, 'Permission denied']);
    assert.deepEqual(await textOf(s1.fetch('/v1/agent/self')), [403, 'Permission denied']);
    assert.equal((await s1.fetch('/v1/agent/health')).status, 200);
    const join = await s1.fetch(`/v1/agent/join?address=${gossipAddr(s2.agent)}`, {
      method: 'POST',
    });
    assert.equal(join.status, 200);
  });

  it('answers an unknown token with 403 ACL token not found', async () => {
    for (const a of [s1, client])
      assert.deepEqual(await textOf(a.fetch('/v1/agent/self', { token: 'nope' })), [403, 'ACL token not found']);
  });

  it('enforces node:read, agent:read and agent:write from policies', async () => {
    assert.equal(
      (await s1.fetch('/v1/acl/policy/reader', { method: 'PUT', token: root, body: policy('read', 'read') })).status,
      200,
    );
    assert.equal(
      (await s2.fetch('/v1/acl/policy/writer', { method: 'POST', token: root, body: policy('write', undefined) }))
        .status,
      200,
    );
    const reader = await makeToken(s2, 'reader', ['reader']);
    const writer = await makeToken(s1, 'writer', ['writer']);
    assert.equal((await s2.fetch('/v1/agent/members', { token: reader })).status, 200);
    assert.equal((await s2.fetch('/v1/agent/self', { token: reader })).status, 200);
    assert.deepEqual(await textOf(s2.fetch('/v1/agent/force-leave?node=x', { method: 'POST', token: reader })), [
      403,
      'Permission denied',
    ]);
    assert.equal((await s2.fetch('/v1/agent/force-leave?node=x', { method: 'POST', token: writer })).status, 200);
    assert.deepEqual(await textOf(s2.fetch('/v1/agent/members', { token: writer })), [403, 'Permission denied']);
    assert.equal((await client.fetch('/v1/agent/servers', { token: reader })).status, 200);
    assert.deepEqual(
      await textOf(client.fetch(`/v1/agent/servers?address=${s1.agent.rpcAddress}`, { method: 'POST', token: reader })),
      [403, 'Permission denied'],
    );
    assert.equal(
      (await client.fetch(`/v1/agent/servers?address=${s1.agent.rpcAddress}`, { method: 'POST', token: writer }))
        .status,
      200,
    );
  });

  it('lets deny in one policy override a grant in another', async () => {
    await s1.fetch('/v1/acl/policy/no-agent', { method: 'POST', token: root, body: policy('deny', undefined) });
    const mixed = await makeToken(s1, 'mixed', ['reader', 'no-agent']);
    assert.deepEqual(await textOf(s1.fetch('/v1/agent/self', { token: mixed })), [403, 'Permission denied']);
    assert.equal((await s1.fetch('/v1/agent/members', { token: mixed })).status, 200);
  });

  it('reads the token from X-Nomad-Token and Authorization: Bearer too', async () => {
    assert.equal((await s1.fetch('/v1/agent/self', { headers: { 'X-Nomad-Token': root } })).status, 200);
    assert.equal((await s1.fetch('/v1/agent/self', { headers: { Authorization: `bearer ${root}` } })).status, 200);
  });

  it('gives anonymous requests the anonymous policy', async () => {
    await s2.fetch('/v1/acl/policy/anonymous', { method: 'POST', token: root, body: policy(undefined, 'read') });
    assert.equal((await s1.fetch('/v1/agent/members')).status, 200);
    assert.equal((await client.fetch('/v1/agent/members')).status, 200);
    assert.equal((await s1.fetch('/v1/agent/self')).status, 403);
  });

  it('forwards host and pprof with the caller token, which the target checks', async () => {
    await s1.fetch('/v1/acl/policy/nodes-only', { method: 'POST', token: root, body: policy(undefined, 'read') });
    const writer = await makeToken(s1, 'fw', ['writer']);
    const nodesOnly = await makeToken(s1, 'nodes', ['nodes-only']);
    const host = await s1.fetch('/v1/agent/host?server_id=b', { token: writer });
    assert.equal(host.status, 200);
    assert.equal(((await host.json()) as { AgentID: string }).AgentID, 'b.global');
    assert.deepEqual(await textOf(s1.fetch('/v1/agent/host?server_id=b', { token: nodesOnly })), [
      403,
      'Permission denied',
    ]);
    assert.deepEqual(await textOf(client.fetch('/v1/agent/host?server_id=a')), [403, 'Permission denied']);
    const cmd = await client.fetch('/v1/agent/pprof/cmdline?server_id=leader', { token: writer });
    const leaderNode = s1.agent.leader()?.id.split('.')[0];
    assert.deepEqual([cmd.status, await cmd.text()], [200, `node\0ward-agent\0agent\0-node=${leaderNode}`]);
  });

  it('registers only clients whose agent token has node:write, so node_id reaches only them', async () => {
    await s1.fetch('/v1/acl/policy/node-agent', { method: 'POST', token: root, body: policy(undefined, 'write') });
    const agentToken = await makeToken(s1, 'agent-c2', ['node-agent']);
    const c2 = await start(network, 'c2', {
      acl: { enabled: true, agentToken },
      server: { enabled: false },
      client: { enabled: true, servers: [s2.agent.rpcAddress] },
    });
    try {
      const registered = async () =>
        (await s1.fetch(`/v1/agent/host?node_id=${c2.agent.nodeId}`, { token: root })).status === 200;
      for (let t = 0; t < 10_000 && !(await registered()); t += 100) await network.run(100);
      assert.ok(await registered(), 'c2 registered');
      const res = await s1.fetch(`/v1/agent/host?node_id=${client.agent.nodeId}`, { token: root });
      assert.deepEqual([res.status, await res.text()], [500, `node not found: ${client.agent.nodeId}`]);
    } finally {
      await c2.agent.stop(false);
    }
  });

  it('lists, reads and deletes policies and tokens; only management may', async () => {
    const reader = await makeToken(s1, 'r2', ['reader']);
    const policies = (await (await s2.fetch('/v1/acl/policies', { token: root })).json()) as Array<{ Name: string }>;
    assert.deepEqual(
      policies.map((p) => p.Name),
      ['anonymous', 'no-agent', 'node-agent', 'nodes-only', 'reader', 'writer'],
    );
    const p = (await (await s2.fetch('/v1/acl/policy/reader', { token: root })).json()) as { Rules: string };
    assert.match(p.Rules, /agent/);
    assert.equal((await s2.fetch('/v1/acl/policies', { token: reader })).status, 403);
    const tokens = (await (await s1.fetch('/v1/acl/tokens', { token: root })).json()) as Array<Record<string, unknown>>;
    assert.ok(tokens.every((t) => !('SecretID' in t)));
    const me = (await (await client.fetch('/v1/acl/token/self', { token: reader })).json()) as {
      AccessorID: string;
      Name: string;
    };
    assert.equal(me.Name, 'r2');
    assert.equal((await s2.fetch(`/v1/acl/token/${me.AccessorID}`, { method: 'DELETE', token: root })).status, 200);
    assert.deepEqual(await textOf(s1.fetch('/v1/agent/members', { token: reader })), [403, 'ACL token not found']);
    assert.equal((await s1.fetch('/v1/acl/policy/nope', { token: root })).status, 404);
    const bad = await s1.fetch('/v1/acl/policy/bad', {
      method: 'POST',
      token: root,
      body: JSON.stringify({ Rules: 'agent {\n policy = "sudo"\n}' }),
    });
    assert.equal(bad.status, 400);
  });
});

describe('ACL API with ACLs disabled', () => {
  it('answers 400 ACL support disabled', async () => {
    const a = await start(new MemoryAgentNetwork(new FakeClock(0)), 'a', {});
    try {
      assert.deepEqual(await textOf(a.fetch('/v1/acl/bootstrap', { method: 'POST' })), [400, 'ACL support disabled']);
    } finally {
      await a.agent.stop(false);
    }
  });
});

async function textOf(res: Promise<Response>): Promise<[number, string]> {
  const r = await res;
  return [r.status, await r.text()];
}
