import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { FakeClock } from '@ward/base';
import type { Agent } from '../../agent.js';
import { MemoryAgentNetwork, type MemoryRequest } from '../../testing.js';

const network = new MemoryAgentNetwork(new FakeClock(0));
const started: Agent[] = [];
after(async () => {
  await Promise.all(started.map((a) => a.stop(false)));
});

/** An agent in memory whose `fetch(path)` waits on fake time. */
interface On {
  fetch(path: string, init?: MemoryRequest): Promise<Response>;
}

async function agentWith(
  enableDebug: boolean | undefined,
  aclEnabled: boolean,
): Promise<{ a: On; writeToken?: string; readToken?: string }> {
  const agent = await network.startAgent(`p${started.length}`, { enableDebug, acl: { enabled: aclEnabled } });
  started.push(agent);
  await network.run(1000, () => agent.consensus?.isLeader === true);
  const a: On = { fetch: (path, init) => network.settle(network.fetch(network.url(agent, path), init)) };
  if (!aclEnabled) return { a };
  const boot = (await (await a.fetch('/v1/acl/bootstrap', { method: 'POST' })).json()) as { SecretID: string };
  const mk = async (name: string, level: string) => {
    const rules = `agent {\n  policy = "${level}"\n}\n`;
    assert.equal(
      (
        await a.fetch(`/v1/acl/policy/${name}`, {
          method: 'POST',
          token: boot.SecretID,
          body: JSON.stringify({ Rules: rules }),
        })
      ).status,
      200,
    );
    const t = await a.fetch('/v1/acl/token', {
      method: 'POST',
      token: boot.SecretID,
      body: JSON.stringify({ Name: name, Policies: [name] }),
    });
    return ((await t.json()) as { SecretID: string }).SecretID;
  };
  return { a, writeToken: await mk('w', 'write'), readToken: await mk('r', 'read') };
}

async function status(a: On, token?: string): Promise<[number, string]> {
  const res = await a.fetch('/v1/agent/pprof/cmdline', { token });
  return [res.status, res.status === 200 ? 'ok' : await res.text()];
}

// Spec Part B, "Availability of /agent/pprof": every row of the enable_debug × ACL table.
describe('pprof availability', () => {
  const denied: [number, string] = [403, 'Permission denied'];

  it('enable_debug unset, ACLs off: not available', async () => {
    const { a } = await agentWith(undefined, false);
    assert.deepEqual(await status(a), denied);
  });

  it('enable_debug true, ACLs off: available', async () => {
    const { a } = await agentWith(true, false);
    assert.deepEqual(await status(a), [200, 'ok']);
  });

  it('enable_debug false, ACLs off: not available', async () => {
    const { a } = await agentWith(false, false);
    assert.deepEqual(await status(a), denied);
  });

  it('enable_debug unset, ACLs on: available with agent:write, not with agent:read or anonymous', async () => {
    const { a, writeToken, readToken } = await agentWith(undefined, true);
    assert.deepEqual(await status(a, writeToken), [200, 'ok']);
    assert.deepEqual(await status(a, readToken), denied);
    assert.deepEqual(await status(a), denied);
  });

  it('enable_debug true, ACLs on: available with agent:write', async () => {
    const { a, writeToken, readToken } = await agentWith(true, true);
    assert.deepEqual(await status(a, writeToken), [200, 'ok']);
    assert.deepEqual(await status(a, readToken), denied);
  });

  it('enable_debug false, ACLs on: available with agent:write', async () => {
    const { a, writeToken } = await agentWith(false, true);
    assert.deepEqual(await status(a, writeToken), [200, 'ok']);
  });
});
