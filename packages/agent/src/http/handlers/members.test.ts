import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { MembersResponse } from '../../members.js';
import { MemoryAgentNetwork } from '../../testing.js';

// An endpoint tested as CONTRIBUTING.md shows: agents on a `MemoryAgentNetwork`, requests
// over its HTTP, time on a `FakeClock`.
describe('GET /v1/agent/members in memory', async () => {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  const server = await network.startAgent('s1');
  const client = await network.startAgent('c1', {
    server: { enabled: false },
    client: { enabled: true, servers: [server.rpcAddress] },
  });
  after(async () => {
    await client.stop(false);
    await server.stop(false);
  });
  await network.run(2000, () => server.consensus?.isLeader === true);

  it('a server answers its own gossip view', async () => {
    const res = await network.fetch(network.url(server, '/v1/agent/members'));
    assert.equal(res.status, 200);
    const body = (await res.json()) as MembersResponse;
    assert.equal(body.ServerName, 's1');
    assert.deepEqual(
      body.Members.map((m) => [m.Name, m.Addr, m.Status, m.Tags?.port]),
      [['s1.global', '10.0.0.1', 'alive', '4647']],
    );
  });

  it("a client answers its server's view, asked over RPC", async () => {
    const res = await network.settle(network.fetch(network.url(client, '/v1/agent/members')));
    assert.equal(res.status, 200);
    const body = (await res.json()) as MembersResponse;
    assert.equal(body.ServerName, 's1');
    assert.deepEqual(
      body.Members.map((m) => m.Name),
      ['s1.global'],
    );
  });

  it('a client whose servers are all unreachable answers 500', async () => {
    network.streams.isolate(server.advertiseIp);
    try {
      const res = await network.settle(network.fetch(network.url(client, '/v1/agent/members')));
      assert.equal(res.status, 500);
    } finally {
      network.streams.heal(server.advertiseIp);
    }
  });
});
