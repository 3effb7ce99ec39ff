import { cryptoRandom, systemClock } from '@ward/base';
import { Agent } from './agent.js';
import { type ConfigLayer, defaultConfig, mergeConfig } from './config/config.js';
import { LogHub } from './monitor/log-hub.js';

/** An in-process agent on 127.0.0.1 with ephemeral ports, for HTTP-level tests. */
export interface TestAgent {
  agent: Agent;
  url: string;
  fetch(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  stop(): Promise<void>;
}

/** Starts a single-server agent (override anything with `layer`); gossip timings are fast. */
export async function startTestAgent(layer: ConfigLayer = {}, env: NodeJS.ProcessEnv = {}): Promise<TestAgent> {
  const base = mergeConfig(defaultConfig('test'), {
    bindAddr: '127.0.0.1',
    ports: { http: 0, rpc: 0, serf: 0 },
    server: { enabled: true, bootstrapExpect: 1 },
    gossip: {
      probeIntervalMs: 100,
      probeTimeoutMs: 50,
      gossipIntervalMs: 50,
      pushPullIntervalMs: 1000,
      suspicionMult: 2,
    },
    heartbeatIntervalMs: 500,
    raft: { electionTimeoutMs: 400, heartbeatIntervalMs: 50 },
  });
  const config = mergeConfig(base, layer);
  const agent = await Agent.start(config, {
    clock: systemClock,
    random: cryptoRandom,
    hub: new LogHub(),
    argv: ['node', 'ward-agent', 'agent', `-node=${config.name}`],
    env,
  });
  const url = `http://127.0.0.1:${agent.httpPort}`;
  return {
    agent,
    url,
    fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.token) headers.set('X-Cluster-Token', init.token);
      return fetch(`${url}${path}`, { ...init, headers });
    },
    stop: () => agent.stop(false),
  };
}
