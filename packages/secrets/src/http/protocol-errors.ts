import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { destroyAfterLinger } from './linger.js';

/**
 * Answers to requests refused below the API handler: by Node's HTTP parser, or for their request
 * line. Spec 000 gives every status >= 400 the `{"errors":[...]}` envelope, these included. Each
 * refusal closes the connection: after a request that could not be framed, nothing can be.
 */
export interface Refusal {
  status: number;
  message: string;
}

/** The parser's error (an llhttp `HPE_*` code, or Node's own request timeout) as the client hears it. */
export function parserRefusal(err: Error & { code?: string; reason?: string }): Refusal {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'request headers too large' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'chunk extensions too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'request not received in time' };
    default:
      // llhttp's reasons ("Invalid method encountered", "Content-Length can't be present with
      // Transfer-Encoding") name the fault without echoing the client's bytes.
      return { status: 400, message: `malformed HTTP request: ${err.reason ?? err.message}` };
  }
}

/**
 * A request Node parsed but the established server would not serve: a version other than 1.x
 * (llhttp reads a request line without one as HTTP/0.9), or HTTP/1.1 without `Host`.
 */
export function requestLineRefusal(req: IncomingMessage): Refusal | undefined {
  if (req.httpVersionMajor !== 1) return { status: 505, message: 'unsupported protocol version' };
  if (req.httpVersionMinor === 1 && req.headers.host === undefined) {
    return { status: 400, message: 'missing required Host header' };
  }
  return undefined;
}

/** Answers a parsed request with `refusal` and closes the connection after it. */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const body = envelope(refusal);
  res.shouldKeepAlive = false;
  res.once('finish', () => destroyAfterLinger(req.socket));
  res.writeHead(refusal.status, {
    'Cache-Control': 'no-store',
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Writes `refusal` straight to a connection the HTTP server has given up on (a parse error, or a
 * CONNECT it handed over), then closes it once the client has had time to read it.
 */
export function writeRefusal(socket: Duplex, refusal: Refusal): void {
  const body = envelope(refusal);
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    'Cache-Control: no-store',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  socket.resume(); // read and discard what the client still sends, so the close is clean
  destroyAfterLinger(socket);
}

function envelope(refusal: Refusal): string {
  return JSON.stringify({ errors: [refusal.message] });
}
