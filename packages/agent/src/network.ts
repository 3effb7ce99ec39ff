import type { Logger } from '@ward/base';
import type { Transport } from './gossip/transport.js';
import type { RpcClient } from './rpc/rpc-client.js';
import type { RpcMethod } from './rpc/rpc-server.js';
import type { RpcTls } from './rpc/rpc-tls.js';
import type { AgentServices } from './services.js';

/** A bound listener: the port it took (0 asked for a free one) and how to stop it. */
export interface Listener {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Every socket an agent opens, so the composition root decides what they are: real UDP,
 * TCP, TLS and HTTP (`NET_NETWORK`, in `net-network.ts`), or an in-memory network for
 * tests on a fake clock (`MemoryAgentNetwork` in `testing.ts`).
 */
export interface AgentNetwork {
  /** The gossip transport on `bind:port`, advertised to peers as `advertise`. */
  gossip(bind: string, port: number, advertise: string): Promise<Transport>;
  /** Serves `methods` on the RPC port (mutual TLS with `tls`). */
  rpcServer(bind: string, port: number, methods: Map<string, RpcMethod>, log: Logger, tls?: RpcTls): Promise<Listener>;
  /** Dials other agents' RPC ports. */
  rpcClient(tls: RpcTls | undefined): RpcClient;
  /** Serves the HTTP API. */
  http(services: AgentServices, bind: string, port: number): Promise<Listener>;
}
