import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { NetTransport } from './gossip/net-transport.js';
import type { Transport } from './gossip/transport.js';
import { HttpServer } from './http/server.js';
import type { AgentNetwork } from './network.js';
import { RpcDialer } from './rpc/rpc-client.js';
import { RpcServer } from './rpc/rpc-server.js';
import type { StreamNetwork } from './streams.js';

/** Real TCP connections (TLS by node:tls when asked). */
export const TCP_STREAMS: StreamNetwork = {
  async listen(server, bind, port) {
    const open = new Set<Socket>();
    server.on('connection', (s: Socket) => {
      open.add(s);
      s.once('close', () => open.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, bind, () => resolve());
    });
    return {
      port: (server.address() as { port: number }).port,
      async close() {
        for (const s of open) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  },
  connect: (host, port, tls) => (tls ? tlsConnect({ ...tls, host, port }) : connect({ host, port })),
};

/**
 * An agent network whose RPC and HTTP run over `streams` and whose gossip is `gossip`'s;
 * `dialFrom(bind)` is the streams an agent bound to `bind` dials from (the same ones by default).
 */
export function agentNetwork(
  streams: StreamNetwork,
  gossip: (bind: string, port: number, advertise: string) => Promise<Transport>,
  dialFrom: (bind: string) => StreamNetwork = () => streams,
): AgentNetwork {
  return {
    gossip,
    rpcServer: (bind, port, log, tls) => RpcServer.listen(streams, bind, port, log, tls),
    rpcClient: (bind, tls, clock) => new RpcDialer(dialFrom(bind), tls, clock),
    http: (api, bind, port) => HttpServer.listen(streams, api, bind, port),
  };
}

/** The real network: UDP + TCP gossip, TCP (or mutual TLS) RPC, and HTTP. */
export const NET_NETWORK: AgentNetwork = agentNetwork(TCP_STREAMS, (bind, port, advertise) =>
  NetTransport.listen(bind, port, advertise),
);
