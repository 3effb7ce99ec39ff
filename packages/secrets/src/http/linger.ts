import type { Duplex } from 'node:stream';

/**
 * After the answer to a request that ends its connection, how long the connection may stay open for
 * the client to read it. Closing while the client is still sending makes the kernel answer with a
 * reset, which can destroy the answer before the client reads it; the wait gives it time to stop.
 */
const LINGER_MS = 1_000;

/** Destroys `socket` `LINGER_MS` from now unless it has closed by then. */
export function destroyAfterLinger(socket: Duplex): void {
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
