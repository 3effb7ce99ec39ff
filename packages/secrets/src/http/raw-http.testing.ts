// Test harness for the listener tests: a client that speaks raw HTTP/1.1 over a socket, so tests
// control every byte and every packet boundary, and a handler that echoes what it was given.
// Production code never imports this file.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

export interface RawResponse {
  status: number;
  /** Header names in lower case; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
}

/** What echoHandler answers: the request as the handler saw it. */
export interface Echo {
  method: string;
  url: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  rawHeaders: string[];
  trailers: Record<string, string | undefined>;
  encrypted: boolean;
}

/** Answers 200 with the request as JSON (see Echo), after reading the whole body. */
export function echoHandler(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const echo: Echo = {
      method: req.method ?? '',
      url: req.url ?? '',
      body: Buffer.concat(chunks).toString('latin1'),
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      trailers: req.trailers,
      encrypted: (req.socket as { encrypted?: boolean }).encrypted === true,
    };
    sendJson(res, 200, echo);
  });
}

/** Writes `body` as a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The JSON body of a response from echoHandler. */
export function echoOf(response: RawResponse): Echo {
  return JSON.parse(response.body.toString('latin1')) as Echo;
}

/** A raw HTTP/1.1 client connection: write any bytes, read responses one by one. */
export class RawClient {
  readonly socket: Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #isEnded = false;
  #wake: (() => void) | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    const ended = () => {
      this.#isEnded = true;
      this.#wake?.();
    };
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', ended); // a reset shows as the connection ending
  }

  /**
   * Connects to `host` (default 127.0.0.1) at `port`; over TLS when `ca` (the server's certificate)
   * is given, presenting `cert` and `key` if given.
   */
  static connect(
    port: number,
    options: { host?: string; ca?: string; cert?: string; key?: string } = {},
  ): Promise<RawClient> {
    const { host = '127.0.0.1', ca, cert, key } = options;
    return new Promise((resolve, reject) => {
      const socket = ca
        ? connectTls({ host, port, ca, cert, key, servername: 'localhost' }, () => resolve(client))
        : connectTcp({ host, port }, () => resolve(client));
      const client = new RawClient(socket);
      socket.once('error', reject);
    });
  }

  get isEnded(): boolean {
    return this.#isEnded;
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (err) => (err ? reject(err) : resolve())));
  }

  /** Writes `data` one byte per write, letting the event loop run between writes. */
  async writeByteByByte(data: string): Promise<void> {
    for (const byte of Buffer.from(data, 'latin1')) {
      await this.write(Buffer.from([byte]));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The next response (an interim `100 Continue` counts as one). Rejects after `timeoutMs`. */
  async readResponse(timeoutMs = 5_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const response = this.#takeResponse();
      if (response) return response;
      if (this.#isEnded) throw new Error(`connection ended; unparsed bytes: ${this.#buffer.toString('latin1')}`);
      if (!(await this.#waitForBytes(deadline - Date.now()))) throw new Error('timed out waiting for a response');
    }
  }

  /** Resolves true if something arrives (or the connection ends) within `timeoutMs`, else false. */
  async waitForAnything(timeoutMs: number): Promise<boolean> {
    return this.#buffer.length > 0 || this.#isEnded || this.#waitForBytes(timeoutMs);
  }

  /** Resolves once the server has ended or closed the connection. Rejects after `timeoutMs`. */
  async waitForEnd(timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#isEnded) {
      if (!(await this.#waitForBytes(deadline - Date.now()))) throw new Error('timed out waiting for the end');
    }
  }

  close(): void {
    this.socket.destroy();
  }

  #waitForBytes(timeoutMs: number): Promise<boolean> {
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve(false);
      }, timeoutMs);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve(true);
      };
    });
  }

  /** Removes and returns one complete response from the buffer, or undefined if none is complete. */
  #takeResponse(): RawResponse | undefined {
    const headEnd = this.#buffer.indexOf(HEAD_END);
    if (headEnd === -1) return undefined;
    const lines = this.#buffer.toString('latin1', 0, headEnd).split('\r\n');
    const status = Number(lines[0]?.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodyStart = headEnd + HEAD_END.length;
    const framed = readBody(this.#buffer, bodyStart, status, headers, this.#isEnded);
    if (!framed) return undefined;
    this.#buffer = this.#buffer.subarray(framed.end);
    return { status, headers, body: framed.body };
  }
}

/** The body starting at `start`, framed as RFC 9112 §6.3 says, or undefined if not all there yet. */
function readBody(
  buffer: Buffer,
  start: number,
  status: number,
  headers: Record<string, string>,
  isEnded: boolean,
): { body: Buffer; end: number } | undefined {
  if ((status >= 100 && status < 200) || status === 204 || status === 304) {
    return { body: Buffer.alloc(0), end: start };
  }
  if (headers['transfer-encoding'] === 'chunked') return readChunked(buffer, start);
  if (headers['content-length'] !== undefined) {
    const end = start + Number(headers['content-length']);
    return buffer.length >= end ? { body: buffer.subarray(start, end), end } : undefined;
  }
  return isEnded ? { body: buffer.subarray(start), end: buffer.length } : undefined;
}

function readChunked(buffer: Buffer, start: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buffer.indexOf(CRLF, at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16);
    at = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = buffer.indexOf(CRLF, at);
      return trailerEnd === at ? { body: Buffer.concat(parts), end: at + 2 } : undefined;
    }
    if (buffer.length < at + size + 2) return undefined;
    parts.push(buffer.subarray(at, at + size));
    at += size + 2;
  }
}
