import { NetTransport } from './gossip/net-transport.js';
import { HttpServer } from './http/server.js';
import type { AgentNetwork } from './network.js';
import { RpcDialer } from './rpc/rpc-client.js';
import { RpcServer } from './rpc/rpc-server.js';

/** The real network: UDP + TCP gossip, TCP (or mutual TLS) RPC, and HTTP. */
export const NET_NETWORK: AgentNetwork = {
  gossip: (bind, port, advertise) => NetTransport.listen(bind, port, advertise),
  rpcServer: (bind, port, log, tls) => RpcServer.listen(bind, port, log, tls),
  rpcClient: (tls) => new RpcDialer(tls),
  http: (api, bind, port) => HttpServer.listen(api, bind, port),
};
