import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { type Clock, cryptoRandom, type FakeClock, type Logger, SeededRandom, systemClock } from '@ward/base';
import { Agent } from './agent.js';
import { type ConfigLayer, defaultConfig, mergeConfig } from './config/config.js';
import { MemoryNetwork } from './gossip/memory-network.js';
import type { Transport } from './gossip/transport.js';
import { warmUpHcl } from './hcl/warm-up.js';
import type { HttpApi } from './http/server.js';
import { MemoryStreams } from './memory-streams.js';
import { LogHub } from './monitor/log-hub.js';
import { agentNetwork } from './net-network.js';
import type { AgentNetwork, RpcListener } from './network.js';
import type { RpcClient } from './rpc/rpc-client.js';
import type { RpcTls } from './rpc/rpc-tls.js';
import type { Listener } from './streams.js';

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
  await warmUpHcl(config);
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

/** A request on a `MemoryAgentNetwork`: `token` goes in X-Cluster-Token. */
export interface MemoryRequest {
  method?: string;
  body?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** An open streaming answer: its status, headers and the body so far. */
export interface OpenStream {
  status: number;
  headers: Headers;
  text: string;
  close(): void;
}

/**
 * A whole agent network in memory on one fake clock: gossip over `MemoryNetwork`, RPC and
 * HTTP over `MemoryStreams` (the real RPC framing and node:http server, on in-memory
 * connections). `startAgent` starts an agent on it at its own address, `fetch` talks HTTP
 * to any of them, and `run`/`settle` move time on. No socket is opened, no real timer set.
 */
export class MemoryAgentNetwork implements AgentNetwork {
  readonly gossipNetwork: MemoryNetwork;
  readonly streams = new MemoryStreams();
  readonly #net: AgentNetwork;
  readonly #logs = new Map<string, string[]>();
  #hosts = 0;

  constructor(readonly clock: FakeClock) {
    this.gossipNetwork = new MemoryNetwork(clock);
    this.#net = agentNetwork(
      this.streams,
      async (_bind, _port, advertise) => this.gossipNetwork.createTransport(advertise),
      (bind) => this.streams.from(bind),
    );
  }

  gossip(bind: string, port: number, advertise: string): Promise<Transport> {
    return this.#net.gossip(bind, port, advertise);
  }

  rpcServer(bind: string, port: number, log: Logger, tls?: RpcTls): Promise<RpcListener> {
    return this.#net.rpcServer(bind, port, log, tls);
  }

  rpcClient(bind: string, tls: RpcTls | undefined, clock: Clock): RpcClient {
    return this.#net.rpcClient(bind, tls, clock);
  }

  /** Cuts `agent` off from every other host both ways (gossip and streams) until `heal`: a partition. */
  partition(agent: Agent): void {
    if (agent.gossip) this.gossipNetwork.isolate(agent.gossip.local);
    this.streams.isolate(agent.advertiseIp);
  }

  heal(agent: Agent): void {
    if (agent.gossip) this.gossipNetwork.heal(agent.gossip.local);
    this.streams.heal(agent.advertiseIp);
  }

  http(api: HttpApi, bind: string, port: number): Promise<Listener> {
    return this.#net.http(api, bind, port);
  }

  /**
   * Starts a server agent named `name` on the next address (10.0.0.1, 10.0.0.2, …; HTTP on
   * 4646, RPC on 4647), with `layer` over the defaults (`client: { enabled: true,
   * servers: […] }` and `server: { enabled: false }` make a client); `env` is the
   * environment it sees (for /v1/agent/host).
   */
  async startAgent(name: string, layer: ConfigLayer = {}, env: NodeJS.ProcessEnv = {}): Promise<Agent> {
    const base = mergeConfig(defaultConfig(name), {
      bindAddr: `10.0.0.${++this.#hosts}`,
      ports: { http: 4646, rpc: 4647, serf: 0 },
      server: { enabled: true, bootstrapExpect: 1 },
      gossipProfile: 'lan',
    });
    const argv = ['node', 'ward-agent', 'agent', `-node=${name}`];
    const hub = new LogHub();
    const lines = this.#logs.get(name) ?? [];
    this.#logs.set(name, lines);
    hub.subscribe({ level: 'debug', json: false, sink: { write: (l) => lines.push(l) }, now: () => this.clock.now() });
    const deps = { clock: this.clock, random: new SeededRandom(name), hub, argv, env };
    return Agent.start(mergeConfig(base, layer), deps, this);
  }

  /** What the agents named `name` started on this network logged (debug and up, text lines). */
  logs(name: string): string {
    return (this.#logs.get(name) ?? []).join('');
  }

  /** The HTTP address of `agent` on this network. */
  url(agent: Agent, path = ''): string {
    return `http://${agent.advertiseIp}:${agent.httpPort}${path}`;
  }

  /** Advances fake time by up to `ms` in 10 ms steps (or until `until`), letting deliveries run between. */
  async run(ms: number, until?: () => boolean): Promise<void> {
    for (let t = 0; t < ms && !until?.(); t += 10) {
      this.clock.advance(10);
      for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
    }
  }

  /** Runs fake time until `p` settles (a forwarded write waits on Raft, whose timers are fake). */
  async settle<T>(p: Promise<T>, maxMs = 10_000): Promise<T> {
    let isDone = false;
    void p
      .finally(() => {
        isDone = true;
      })
      .catch(() => {});
    await this.run(maxMs, () => isDone);
    return p;
  }

  /**
   * A streaming request (such as /v1/agent/monitor): resolves once the status and headers
   * arrive; `text` grows as the body does, until `close` hangs up.
   */
  open(url: string, init: MemoryRequest = {}): Promise<OpenStream> {
    return new Promise((resolve, reject) => {
      const req = this.#request(url, init, (res) => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        const stream: OpenStream = { status: res.statusCode ?? 0, headers: h, text: '', close: () => req.destroy() };
        res.on('data', (c: Buffer) => {
          stream.text += c.toString();
        });
        res.on('error', () => {});
        resolve(stream);
      });
      req.on('error', reject);
      req.end(init.body);
    });
  }

  #request(url: string, init: MemoryRequest, onResponse: (res: IncomingMessage) => void): ClientRequest {
    const u = new URL(url);
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers['X-Cluster-Token'] = init.token;
    return httpRequest(
      {
        method: init.method ?? 'GET',
        path: `${u.pathname}${u.search}`,
        headers,
        createConnection: () => this.streams.connect(u.hostname, Number(u.port)) as Socket,
      },
      onResponse,
    );
  }

  /** An HTTP request to `http://host:port/path` on this network; the answer as a fetch `Response`. */
  fetch(url: string, init: MemoryRequest = {}): Promise<Response> {
    return new Promise((resolve, reject) => {
      const req = this.#request(url, init, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: h }));
        });
      });
      req.on('error', reject);
      req.end(init.body);
    });
  }
}
