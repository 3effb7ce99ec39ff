import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

/**
 * Keeps the MethodShim off the common path. A connection starts with Node's HTTP parser reading
 * straight from the socket (in C++, no JavaScript per packet); only when that parser refuses a
 * request's method and the method is `LIST` does the listener move the connection onto the shim,
 * from that request on. This file holds the two delicate steps: finding where the LIST request
 * starts in what the parser gave up on, and taking the socket back from Node's HTTP server.
 */

/** Node's own helper that returns a connection's parser (unhooked from the socket) to its pool. */
const { freeParser } = createRequire(import.meta.url)('_http_common') as {
  freeParser(parser: unknown, req: unknown, socket: Socket): void;
};

const LI = Buffer.from('LI', 'latin1');
const S = 0x53;

/** What llhttp attaches to its error: the packet it was parsing and where in it the error is. */
export interface ParserError {
  code?: string;
  rawPacket?: Buffer;
  bytesParsed?: number;
}

/**
 * The bytes of a refused request from its first byte on, when the parser refused it because its
 * method is `LIST`; `undefined` for any other error. llhttp knows `LINK` and `LOCK`, so it reads
 * `L`, `I` and fails at the `S` of `LIST`: `bytesParsed` points at that `S`, and the two bytes
 * before it are `LI` (no other method prefix fails at an `S` after `LI`). The method's start may
 * be in an earlier packet the parser already consumed; those bytes are put back. When the packet
 * starts at the `S` itself, the consumed prefix cannot be seen: it is taken to be `LI` (so a client
 * that sends a bogus method such as `LOST`, cut by TCP right before its `S`, has it served as `LIST`,
 * which the ACL judges like any other request). The shim checks the rest of the method.
 */
export function listRequestBytes(err: ParserError): Buffer | undefined {
  const packet = err.rawPacket;
  const at = err.bytesParsed;
  if (err.code !== 'HPE_INVALID_METHOD' || !packet || at === undefined || packet[at] !== S) return undefined;
  const start = Math.max(0, at - LI.length);
  const seen = packet.subarray(start, at);
  if (!LI.subarray(LI.length - seen.length).equals(seen)) return undefined;
  if (seen.length === LI.length) return packet.subarray(start);
  return Buffer.concat([LI.subarray(0, LI.length - seen.length), packet]);
}

/** The listeners Node's HTTP server puts on a connection (`_http_server.js`, the same in Node 20 and 24), by function name. */
const HTTP_SERVER_LISTENERS: ReadonlyArray<[string, string]> = [
  ['data', 'bound socketOnData'],
  ['end', 'bound socketOnEnd'],
  ['close', 'bound socketOnClose'],
  ['drain', 'bound socketOnDrain'],
  ['timeout', 'socketOnTimeout'],
  ['error', 'socketOnError'],
  ['error', 'noop'],
  ['resume', 'onSocketResume'],
  ['pause', 'onSocketPause'],
];

/**
 * Takes `socket` back from Node's HTTP server after its parser failed, as Node itself does for an
 * upgrade: the parser is unhooked and freed, the server's listeners removed, and the socket paused
 * so that nothing it receives meanwhile is lost. Responses to requests before the failure still go
 * out on it. Returns false (and changes nothing) when the socket is not in the state expected.
 */
export function takeBackFromHttpServer(socket: Socket): boolean {
  const parser = (socket as Socket & { parser?: unknown }).parser;
  if (!parser) return false;
  for (const [event, name] of HTTP_SERVER_LISTENERS) {
    for (const listener of socket.listeners(event)) {
      if ((listener as { name?: string }).name === name) socket.removeListener(event, listener as () => void);
    }
  }
  freeParser(parser, undefined, socket);
  // After the server's 'pause' listener is gone: it would stop reading the socket altogether. The
  // socket keeps reading into its buffer; the shim takes the bytes from there.
  socket.pause();
  return true;
}
