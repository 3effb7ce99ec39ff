import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A TCP relay in front of a server that can cut its connections the way a firewall or a
 * load balancer drops an idle one: silently, so the client learns it only when it next sends.
 */
export interface TcpCutter {
  /** `ldap://127.0.0.1:<port>` of the relay. */
  url: string;
  /** Client connections open through the relay right now. */
  readonly openConnections: number;
  /** Connections accepted since the start. */
  readonly acceptedConnections: number;
  /** Marks every open connection dead: the next bytes a client sends on one close it, unanswered. */
  cutSilently(): void;
  close(): Promise<void>;
}

export async function startTcpCutter(target: { host: string; port: number }): Promise<TcpCutter> {
  const open = new Set<Socket>();
  const dead = new WeakSet<Socket>();
  let accepted = 0;
  const server = createServer((client) => {
    accepted++;
    open.add(client);
    const upstream = createConnection(target.port, target.host);
    const closeBoth = () => {
      open.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (dead.has(client)) closeBoth();
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    for (const socket of [client, upstream]) {
      socket.on('error', closeBoth);
      socket.on('close', closeBoth);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return {
    url: `ldap://127.0.0.1:${address.port}`,
    get openConnections() {
      return open.size;
    },
    get acceptedConnections() {
      return accepted;
    },
    cutSilently: () => {
      for (const socket of open) dead.add(socket);
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Waits (up to 5 s) until `count()` is `expected`: sockets close a moment after the close is asked for. */
export async function settles(count: () => number, expected: number): Promise<number> {
  for (let i = 0; i < 100 && count() !== expected; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return count();
}
