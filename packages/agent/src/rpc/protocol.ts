/**
 * The agent RPC protocol (TCP, the `rpc` port): one request per connection, all
 * messages newline-delimited JSON. The request names a method and carries the caller's
 * ACL token; a unary reply is one line, a stream is `chunk` lines until `end` or
 * `error`. Closing the connection cancels a stream.
 */
export interface RpcRequest {
  method: string;
  token?: string;
  args: Record<string, unknown>;
}

export type RpcReply =
  | { ok: true; result: unknown }
  | { ok: false; error: { code: string; message: string } }
  | { chunk: string }
  | { end: true };

/** Upper bound for one line; pprof bodies travel base64 in a single reply. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Splits a byte stream into lines and hands each parsed JSON value to `onLine`. */
export class LineReader {
  #buf = '';

  constructor(private readonly onLine: (value: unknown) => void) {}

  push(chunk: Buffer): void {
    this.#buf += chunk.toString('utf8');
    if (this.#buf.length > MAX_LINE_BYTES) throw new Error('rpc line too long');
    for (;;) {
      const nl = this.#buf.indexOf('\n');
      if (nl === -1) return;
      const line = this.#buf.slice(0, nl);
      this.#buf = this.#buf.slice(nl + 1);
      if (line.trim()) this.onLine(JSON.parse(line));
    }
  }
}
