import { type Clock, cryptoRandom, systemClock } from '@ward/base';
import { Agent } from './agent.js';
import { type ConfigLayer, defaultConfig, mergeConfig } from './config/config.js';
import { AgentError, errorFromCode, UpstreamError } from './errors.js';
import { MemoryNetwork } from './gossip/memory-network.js';
import { warmUpHcl } from './hcl/warm-up.js';
import { LogHub } from './monitor/log-hub.js';
import type { AgentNetwork, Listener, RpcListener } from './network.js';
import type { CallOptions, RpcClient } from './rpc/rpc-client.js';
import type { RpcCall, RpcMethod } from './rpc/rpc-server.js';

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

/**
 * A whole agent network in memory on one clock: gossip over `MemoryNetwork`, RPC by direct
 * calls to the registered methods (arguments and results cross as JSON, errors by code, as
 * on the wire), and no HTTP listener (tests call the services directly).
 */
export class MemoryAgentNetwork implements AgentNetwork {
  readonly gossipNetwork: MemoryNetwork;
  readonly #rpc = new Map<string, Map<string, RpcMethod>>();
  #nextPort = 20_000;

  constructor(readonly clock: Clock) {
    this.gossipNetwork = new MemoryNetwork(clock);
  }

  async gossip(_bind: string, _port: number, advertise: string) {
    return this.gossipNetwork.createTransport(advertise);
  }

  async rpcServer(bind: string, port: number): Promise<RpcListener> {
    const actual = port || this.#nextPort++;
    const address = `${bind}:${actual}`;
    this.#rpc.set(address, new Map());
    return {
      port: actual,
      serve: (methods) => {
        this.#rpc.set(address, methods);
      },
      close: async () => {
        this.#rpc.delete(address);
      },
    };
  }

  rpcClient(): RpcClient {
    return new MemoryRpcClient(this.clock, (address) => this.#rpc.get(address));
  }

  async http(): Promise<Listener> {
    return { port: 0, close: async () => {} };
  }
}

class MemoryRpcClient implements RpcClient {
  readonly isTls = false;

  constructor(
    private readonly clock: Clock,
    private readonly methodsAt: (address: string) => Map<string, RpcMethod> | undefined,
  ) {}

  async call<T>(address: string, method: string, args: Record<string, unknown>, o: CallOptions = {}): Promise<T> {
    const m = this.#method(address, method);
    if (m.kind !== 'unary') throw new UpstreamError(`rpc: ${method} is a stream`);
    const reply = await this.#withTimeout(m.handle(this.#call(args, o, new AbortController().signal)), o.timeoutMs);
    return (reply === undefined ? undefined : JSON.parse(JSON.stringify(reply))) as T;
  }

  async stream(
    address: string,
    method: string,
    args: Record<string, unknown>,
    o: CallOptions & { signal: AbortSignal; onChunk: (chunk: Buffer) => void },
  ): Promise<void> {
    const m = this.#method(address, method);
    if (m.kind !== 'stream') throw new UpstreamError(`rpc: ${method} is not a stream`);
    await m.handle(this.#call(args, o, o.signal), (chunk) => o.onChunk(Buffer.from(chunk))).catch(rethrowTyped);
  }

  #method(address: string, method: string): RpcMethod {
    const m = this.methodsAt(address)?.get(method);
    if (!m) throw new UpstreamError(`rpc error: ${address}: connection refused`);
    return m;
  }

  #call(args: Record<string, unknown>, o: CallOptions, signal: AbortSignal): RpcCall {
    return { token: o.token, args: JSON.parse(JSON.stringify(args)), signal, isServerPeer: true };
  }

  #withTimeout<T>(p: Promise<T>, timeoutMs = 10_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const cancel = this.clock.setTimeout(() => reject(new UpstreamError('rpc error: i/o timeout')), timeoutMs);
      p.then(
        (v) => {
          cancel();
          resolve(v);
        },
        (err: unknown) => {
          cancel();
          try {
            rethrowTyped(err);
          } catch (typed) {
            reject(typed);
          }
        },
      );
    });
  }
}

/** An error as it comes back over the wire: typed by its code, anything else an upstream failure. */
function rethrowTyped(err: unknown): never {
  if (err instanceof AgentError) throw errorFromCode(err.code, err.message);
  throw new UpstreamError(err instanceof Error ? err.message : String(err));
}
