import assert from 'node:assert/strict';
import { FakeClock } from '@ward/base';
import type { Agent } from './agent.js';
import type { ConfigLayer } from './config/config.js';
import { MemoryAgentNetwork, type MemoryRequest } from './testing.js';

/** A member list as an agent reports it: each `Name` (such as `s1.global`) to its `Status` (`alive`, …). */
export type MemberStatus = Map<string, string>;

/**
 * Server agents with ACLs on, in memory on one fake clock (`MemoryAgentNetwork`), and the
 * HTTP steps the cluster tests take on them: each request runs fake time on until it is
 * answered, `until` runs it on until a condition holds.
 */
export class MemoryCluster {
  readonly network = new MemoryAgentNetwork(new FakeClock(0));

  /** Starts the server `name` (ACLs on) expecting `bootstrapExpect` servers; `layer` goes over that. */
  server(name: string, bootstrapExpect: number, layer: ConfigLayer = {}): Promise<Agent> {
    return this.network.startAgent(name, {
      acl: { enabled: true },
      server: { enabled: true, bootstrapExpect },
      ...layer,
    });
  }

  /** An HTTP request to `a`, answered on fake time. */
  call(a: Agent, path: string, init?: MemoryRequest): Promise<Response> {
    return this.network.settle(this.network.fetch(this.network.url(a, path), init));
  }

  /** The JSON body of `call`, which must answer 200. */
  async json<T>(a: Agent, path: string, init?: MemoryRequest): Promise<T> {
    const res = await this.call(a, path, init);
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return (await res.json()) as T;
  }

  /** Moves fake time on in 100 ms steps until `check` holds (for up to `ms`), then asserts it. */
  async until(what: string, check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
    for (let t = 0; t < ms && !(await check()); t += 100) await this.network.run(100);
    assert.ok(await check(), what);
  }

  /** Waits until `a`'s cluster has a leader, bootstraps its ACLs through `a`, and answers the root token. */
  async bootstrap(a: Agent): Promise<string> {
    await this.until('a leader', async () => (await this.call(a, '/v1/agent/health')).status === 200);
    return (await this.json<{ SecretID: string }>(a, '/v1/acl/bootstrap', { method: 'POST' })).SecretID;
  }

  /** `a`'s gossip address, as `join` takes it. */
  gossipAddr(a: Agent): string {
    return `${a.gossip!.local.addr}:${a.gossip!.local.port}`;
  }

  /** Asks `a` to join `target`'s gossip pool (POST /v1/agent/join); answers how many it joined. */
  async join(a: Agent, target: Agent): Promise<number> {
    const path = `/v1/agent/join?address=${this.gossipAddr(target)}`;
    return (await this.json<{ num_joined: number }>(a, path, { method: 'POST' })).num_joined;
  }

  /** The member list as `a` sees it (GET /v1/agent/members as `token`). */
  async members(a: Agent, token: string): Promise<MemberStatus> {
    const body = await this.json<{ Members: Array<{ Name: string; Status: string }> }>(a, '/v1/agent/members', {
      token,
    });
    return new Map(body.Members.map((m) => [m.Name, m.Status]));
  }

  /** Writes an ACL policy `rules` under each of `names` through `a` as `token`, each answered 200. */
  async writePolicies(a: Agent, token: string, names: string[], rules: string): Promise<void> {
    for (const name of names) {
      const body = JSON.stringify({ Name: name, Rules: rules });
      const res = await this.call(a, `/v1/acl/policy/${name}`, { method: 'POST', token, body });
      assert.equal(res.status, 200, `policy ${name}: ${await res.clone().text()}`);
    }
  }

  /** Removes the member `node` from `a`'s member list at once (force-leave with prune), as `token`. */
  async forceLeave(a: Agent, node: string, token: string): Promise<void> {
    await this.call(a, `/v1/agent/force-leave?node=${node}&prune=true`, { method: 'POST', token });
  }
}
