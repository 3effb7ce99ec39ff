import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { FakeClock } from '@ward/base';
import type { ConfigLayer } from '../../config/config.js';
import { MemoryAgentNetwork, type MemoryRequest } from '../../testing.js';

/** An agent in memory on `network` (a new one on a fake clock unless given), with `fetch(path)` on its HTTP. */
async function startOne(layer: ConfigLayer = {}, network = new MemoryAgentNetwork(new FakeClock(0))) {
  const agent = await network.startAgent(layer.name ?? 'a', layer);
  await network.run(1000, () => !agent.consensus || agent.consensus.isLeader);
  return {
    agent,
    network,
    fetch: (path: string, init?: MemoryRequest) => network.settle(network.fetch(network.url(agent, path), init)),
    stop: () => agent.stop(false),
  };
}

describe('GET /v1/agent/self', () => {
  it('shows config, member and every stats section on a combined server+client', async () => {
    const a = await startOne({ name: 'dev', client: { enabled: true }, devMode: true });
    try {
      const body = (await (await a.fetch('/v1/agent/self')).json()) as {
        config: Record<string, unknown>;
        member: { Name: string; Status: string; Port: number };
        stats: Record<string, Record<string, unknown>>;
      };
      for (const key of [
        'Addresses',
        'AdvertiseAddrs',
        'BindAddr',
        'Client',
        'Consul',
        'DataDir',
        'Datacenter',
        'DevMode',
        'EnableDebug',
        'EnableSyslog',
        'LogLevel',
        'NodeName',
        'Ports',
        'Region',
        'Revision',
        'Server',
        'SyslogFacility',
        'TLSConfig',
        'Telemetry',
        'Vault',
        'Version',
        'VersionPrerelease',
      ]) {
        assert.ok(key in body.config, key);
      }
      assert.equal(body.config.NodeName, 'dev');
      assert.equal(body.config.DevMode, true);
      assert.deepEqual(body.config.Ports, { HTTP: a.agent.httpPort, RPC: a.agent.rpcPort, Serf: body.member.Port });
      assert.equal(body.member.Name, 'dev.global');
      assert.equal(body.member.Status, 'alive');
      assert.deepEqual(Object.keys(body.stats).sort(), ['client', 'nomad', 'raft', 'runtime', 'serf']);
      for (const section of Object.values(body.stats)) {
        for (const v of Object.values(section)) assert.equal(typeof v, 'string');
      }
      assert.equal(body.stats.raft?.state, 'Leader');
      assert.equal(body.stats.nomad?.leader, 'true');
      assert.equal(body.stats.client?.known_servers, a.agent.rpcAddress);
      assert.equal(body.stats.runtime?.['kernel.name'], 'linux');
    } finally {
      await a.stop();
    }
  });

  // Issue 23 point 8: every section on every agent kind; a role not run says so.
  it('shows every stats section on a server-only and on a client-only agent', async () => {
    const server = await startOne({ name: 'so' });
    const client = await startOne(
      {
        name: 'co',
        server: { enabled: false },
        client: { enabled: true, servers: [server.agent.rpcAddress] },
      },
      server.network,
    );
    try {
      type Self = { stats: Record<string, Record<string, string>> };
      const s = ((await (await server.fetch('/v1/agent/self')).json()) as Self).stats;
      const c = ((await (await client.fetch('/v1/agent/self')).json()) as Self).stats;
      for (const st of [s, c]) assert.deepEqual(Object.keys(st).sort(), ['client', 'nomad', 'raft', 'runtime', 'serf']);
      assert.deepEqual(s.client, { enabled: 'false' });
      assert.equal(s.raft?.state, 'Leader');
      assert.equal(s.raft?.term, '1');
      assert.deepEqual([s.nomad?.server, s.nomad?.client], ['true', 'false']);
      assert.deepEqual(c.raft, { enabled: 'false', state: 'none' });
      assert.deepEqual(c.serf, { enabled: 'false' });
      assert.deepEqual([c.nomad?.server, c.nomad?.client, c.client?.enabled], ['false', 'true', 'true']);
    } finally {
      await Promise.all([client.stop(), server.stop()]);
    }
  });

  it('gzips a large JSON body when the client accepts gzip', async () => {
    const a = await startOne();
    try {
      const res = await a.fetch('/v1/agent/self', { headers: { 'Accept-Encoding': 'gzip' } });
      assert.equal(res.headers.get('content-encoding'), 'gzip');
      const body = gunzipSync(Buffer.from(await res.arrayBuffer())).toString();
      assert.ok((JSON.parse(body) as { config: unknown }).config);
      const plain = await a.fetch('/v1/agent/self');
      assert.equal(plain.headers.get('content-encoding'), null);
      assert.ok(((await plain.json()) as { config: unknown }).config);
    } finally {
      await a.stop();
    }
  });

  it('indents the JSON with ?pretty', async () => {
    const a = await startOne();
    try {
      const text = await (await a.fetch('/v1/agent/health?pretty')).text();
      assert.match(text, /^\{\n {4}"server": \{\n/);
      assert.ok(text.endsWith('}\n'));
      assert.equal(await (await a.fetch('/v1/agent/health')).text(), '{"server":{"ok":true,"message":"ok"}}');
    } finally {
      await a.stop();
    }
  });
});

describe('GET /v1/agent/health', () => {
  it('is 500 with the JSON as text while the pool has no leader', async () => {
    const a = await startOne({ server: { enabled: true, bootstrapExpect: 3 } });
    try {
      const res = await a.fetch('/v1/agent/health');
      assert.equal(res.status, 500);
      assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(await res.text(), '{"server":{"ok":false,"message":"no leader"}}');
    } finally {
      await a.stop();
    }
  });

  it('checks only the named roles, and a role the agent does not run fails', async () => {
    const a = await startOne();
    try {
      const res = await a.fetch('/v1/agent/health?type=client');
      assert.deepEqual([res.status, await res.text()], [500, '{"client":{"ok":false,"message":"client not enabled"}}']);
      const both = await a.fetch('/v1/agent/health?type=server');
      assert.equal(both.status, 200);
    } finally {
      await a.stop();
    }
  });

  it('is unhealthy for a client that knows no server', async () => {
    const a = await startOne({ server: { enabled: false }, client: { enabled: true, servers: [] } });
    try {
      const res = await a.fetch('/v1/agent/health');
      assert.deepEqual([res.status, await res.text()], [500, '{"client":{"ok":false,"message":"no known servers"}}']);
    } finally {
      await a.stop();
    }
  });
});
