import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { ConfigLayer } from '../../config/config.js';
import { MemoryAgentNetwork } from '../../testing.js';

/** One agent in memory (fake clock) and a GET of `path` on it. */
async function startOne(layer: ConfigLayer, env: NodeJS.ProcessEnv = {}) {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  const agent = await network.startAgent(layer.name ?? 'a', layer, env);
  return {
    agent,
    fetch: (path: string) => network.settle(network.fetch(network.url(agent, path))),
    stop: () => agent.stop(false),
  };
}

describe('GET /v1/agent/host', () => {
  it('returns this host with known-sensitive environment variables redacted', async () => {
    const env = {
      NOMAD_TOKEN: 'n-secret',
      AWS_SECRET_ACCESS_KEY: 'aws',
      MY_API_SECRET: 'x',
      DB_PASSWORD: 'hunter2',
      PATH: '/usr/bin',
    };
    const a = await startOne({ enableDebug: true, name: 'h1' }, env);
    try {
      const res = await a.fetch('/v1/agent/host');
      assert.equal(res.status, 200);
      const body = (await res.json()) as { AgentID: string; HostData: Record<string, unknown> };
      assert.equal(body.AgentID, 'h1.global');
      const h = body.HostData as {
        OS: string;
        Environment: Record<string, string>;
        Disk: Record<string, { DiskMB: number }>;
        Network: unknown[];
        Hosts: string;
        ResolvConf: string;
      };
      assert.deepEqual(h.Environment, {
        NOMAD_TOKEN: '<redacted>',
        AWS_SECRET_ACCESS_KEY: '<redacted>',
        MY_API_SECRET: '<redacted>',
        DB_PASSWORD: '<redacted>',
        PATH: '/usr/bin',
      });
      assert.match(h.OS, /Linux/);
      assert.ok(h.Network.length > 0);
      assert.equal(typeof h.Hosts, 'string');
      assert.equal(typeof h.ResolvConf, 'string');
      assert.ok(Object.keys(h.Disk).length > 0);
      assert.doesNotMatch(JSON.stringify(body), /n-secret|"aws"/);
    } finally {
      await a.stop();
    }
  });

  it('is behind the debug gate: 403 with ACLs off unless enable_debug is true', async () => {
    const a = await startOne({});
    try {
      const res = await a.fetch('/v1/agent/host');
      assert.deepEqual([res.status, await res.text()], [403, 'Permission denied']);
    } finally {
      await a.stop();
    }
  });
});
