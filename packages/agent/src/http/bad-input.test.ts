import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from '../agent.js';
import { MemoryAgentNetwork, type MemoryRequest } from '../testing.js';

// Issue 23 point 6: bad input answers 4xx, never 500, and is not silently ignored. A dev
// agent in memory (its real node:http server) on a fake clock.
describe('bad input to an agent', () => {
  const network = new MemoryAgentNetwork(new FakeClock(0));
  let dev: Agent;
  let root = '';
  const agent = {
    fetch: (path: string, init?: MemoryRequest) => network.settle(network.fetch(network.url(dev, path), init)),
  };

  before(async () => {
    dev = await network.startAgent('bad', { devMode: true, client: { enabled: true }, acl: { enabled: true } });
    await network.run(10_000, () => dev.consensus?.isLeader === true);
    const boot = await agent.fetch('/v1/acl/bootstrap', { method: 'POST' });
    assert.equal(boot.status, 200);
    root = ((await boot.json()) as { SecretID: string }).SecretID;
  });

  after(async () => {
    await dev?.stop(false);
  });

  it('answers 400 to a malformed percent-escape in any path, with or without a token', async () => {
    for (const path of ['/v1/acl/policy/%ZZ', '/v1/acl/token/%E0%A4%A']) {
      for (const token of [undefined, root]) {
        const res = await agent.fetch(path, { token });
        assert.equal(res.status, 400, `${path} ${token ? 'with' : 'without'} token`);
        assert.match(await res.text(), /invalid URL escape/);
      }
    }
  });

  it('answers 404 Unknown node to monitor of an unknown node_id', async () => {
    const res = await agent.fetch('/v1/agent/monitor?node_id=no-such-node', { token: root });
    assert.deepEqual([res.status, await res.text()], [404, 'Unknown node']);
  });

  // Issue 28 point 9: an unknown node is the caller's mistake, not the agent's failure.
  it('answers 404 node not found to pprof of an unknown node_id', async () => {
    for (const profile of ['heap', 'cmdline', 'goroutine']) {
      const res = await agent.fetch(`/v1/agent/pprof/${profile}?node_id=x`, { token: root });
      assert.deepEqual([res.status, await res.text()], [404, 'node not found: x'], profile);
    }
  });

  it('refuses a 2 MB body with 413, even on an endpoint that reads none', async () => {
    const body = 'x'.repeat(2 * 1024 * 1024);
    for (const path of ['/v1/agent/join?address=127.0.0.1:1', '/v1/acl/policy/p']) {
      const res = await agent.fetch(path, { method: 'POST', body, token: root });
      assert.deepEqual([res.status, await res.text()], [413, 'Request body too large'], path);
    }
    // The agent still answers afterwards.
    assert.equal((await agent.fetch('/v1/agent/health')).status, 200);
  });
});
