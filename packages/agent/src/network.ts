import type { Clock, Logger } from '@ward/base';
import type { Transport } from './gossip/transport.js';
import type { HttpApi } from './http/server.js';
import type { RpcClient } from './rpc/rpc-client.js';
import type { RpcMethod } from './rpc/rpc-server.js';
import type { RpcTls } from './rpc/rpc-tls.js';
import type { Listener } from './streams.js';

/**
 * The RPC port, bound before the agent is built (its number goes in the gossip tags and
 * the Raft address); it answers once `serve` gives it the methods.
 */
export interface RpcListener extends Listener {
  serve(methods: Map<string, RpcMethod>): void;
}

/**
 * Every socket an agent opens, so the composition root decides what they are: real UDP,
 * TCP, TLS and HTTP (`NET_NETWORK`, in `net-network.ts`), or an in-memory network for
 * tests on a fake clock (`MemoryAgentNetwork` in `testing.ts`).
 */
export interface AgentNetwork {
  /** The gossip transport on `bind:port`, advertised to peers as `advertise`. */
  gossip(bind: string, port: number, advertise: string): Promise<Transport>;
  /** Binds the RPC port (mutual TLS with `tls`). */
  rpcServer(bind: string, port: number, log: Logger, tls?: RpcTls): Promise<RpcListener>;
  /** Dials other agents' RPC ports from `bind` (its timeouts on `clock`). */
  rpcClient(bind: string, tls: RpcTls | undefined, clock: Clock): RpcClient;
  /** Serves the HTTP API. */
  http(api: HttpApi, bind: string, port: number): Promise<Listener>;
}
