import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/**
 * A failed handshake closes the socket; when the client spoke plain HTTP to this TLS listener
 * (OpenSSL recognises the request line), it is told so first, in plain HTTP, with the established
 * server's words, instead of seeing the connection closed without a reason.
 */
export function answerPlainHttp(error: NodeJS.ErrnoException, socket: TLSSocket): void {
  const raw = (socket as TLSSocket & { _parent?: Socket | null })._parent;
  if (error.code !== 'ERR_SSL_HTTP_REQUEST' || !raw || raw.destroyed) {
    socket.destroy();
    return;
  }
  raw.end('HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n');
  raw.setTimeout(5_000, () => raw.destroy());
}
