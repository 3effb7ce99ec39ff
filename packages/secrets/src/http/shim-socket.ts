import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { DetailedPeerCertificate, PeerCertificate, TLSSocket } from 'node:tls';
import type { MethodShim } from './method-shim.js';

/** Rewritten pieces up to this size are joined into one buffer before the parser sees them. */
const JOIN_LIMIT_BYTES = 16 * 1024;

/**
 * What `http.Server` gets in place of a client's socket: the client's bytes pass through a
 * `MethodShim` on the way in; responses go out untouched. Node accepts any Duplex as a connection
 * (its own test-http-generic-streams does this), so this only has to look enough like a socket:
 * addresses, `encrypted`, timeouts and socket options are those of the real socket, and
 * backpressure, errors and close travel both ways.
 *
 * Over TLS the source is the `TLSSocket`, so the shim sees decrypted bytes.
 */
export class ShimSocket extends Duplex {
  readonly #source: Socket;
  #isSourcePaused = false;

  /**
   * `initial`: bytes the client sent before this socket took over (the start of the LIST request
   * Node's parser refused); they pass through the shim first. A paused `source` is resumed.
   */
  constructor(source: Socket, shim: MethodShim, initial?: Buffer) {
    // The http server decides when to end its side after the client ends: do not end it for it.
    // Strings are left for the real socket to encode, as it would without us.
    super({ allowHalfOpen: true, decodeStrings: false });
    this.#source = source;
    source.on('data', (chunk: Buffer) => this.#forward(shim.push(chunk)));
    source.on('end', () => {
      this.#forward(shim.end());
      this.push(null);
    });
    source.on('timeout', () => this.emit('timeout'));
    source.on('error', (err) => this.destroy(err));
    source.on('close', () => this.destroy());
    if (initial) {
      this.#forward(shim.push(initial));
      source.resume();
    }
  }

  get remoteAddress(): string | undefined {
    return this.#source.remoteAddress;
  }
  get remotePort(): number | undefined {
    return this.#source.remotePort;
  }
  get remoteFamily(): string | undefined {
    return this.#source.remoteFamily;
  }
  get localAddress(): string | undefined {
    return this.#source.localAddress;
  }
  get localPort(): number | undefined {
    return this.#source.localPort;
  }

  /** True over TLS, as on a `TLSSocket`, so `req.socket.encrypted` tells HTTPS from HTTP. */
  get encrypted(): boolean {
    return (this.#source as Partial<TLSSocket>).encrypted === true;
  }

  /** Whether the client's certificate was verified against the listener's CA (false without TLS). */
  get authorized(): boolean {
    return (this.#source as Partial<TLSSocket>).authorized === true;
  }

  /** The client's certificate, as `TLSSocket.getPeerCertificate` gives it; undefined without TLS. */
  getPeerCertificate(detailed?: boolean): PeerCertificate | DetailedPeerCertificate | undefined {
    const tls = this.#source as Partial<TLSSocket>;
    return tls.getPeerCertificate?.call(this.#source, detailed);
  }

  /** As `net.Socket.setTimeout`: the idle timer is the real socket's, so any traffic resets it. */
  setTimeout(timeoutMs: number, callback?: () => void): this {
    this.#source.setTimeout(timeoutMs);
    if (callback) {
      if (timeoutMs === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.#source.setNoDelay(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, initialDelayMs?: number): this {
    this.#source.setKeepAlive(enable, initialDelayMs);
    return this;
  }

  override _read(): void {
    if (this.#isSourcePaused) {
      this.#isSourcePaused = false;
      this.#source.resume();
    }
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.#afterWrite(this.#source.write(chunk, encoding), callback);
  }

  /** The http server corks head and body together; keep them in one write to the real socket. */
  override _writev(
    chunks: Array<{ chunk: Buffer | string; encoding: BufferEncoding }>,
    callback: (err?: Error | null) => void,
  ): void {
    this.#source.cork();
    let isFlowing = true;
    for (const { chunk, encoding } of chunks) isFlowing = this.#source.write(chunk, encoding);
    this.#source.uncork();
    this.#afterWrite(isFlowing, callback);
  }

  override _final(callback: (err?: Error | null) => void): void {
    this.#source.end();
    callback();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    // Without the error: it is already ours to report, and the source would only echo it back.
    this.#source.destroy();
    callback(err);
  }

  #forward(chunks: Buffer[]): void {
    let isWanted = true;
    if (chunks.length > 1 && totalLength(chunks) <= JOIN_LIMIT_BYTES) {
      // A rewritten request arrives in pieces; each push is a separate run of the HTTP parser, which
      // costs more than copying a few hundred bytes into one buffer.
      isWanted = this.push(Buffer.concat(chunks));
    } else {
      for (const chunk of chunks) isWanted = this.push(chunk);
    }
    if (!isWanted && !this.#isSourcePaused) {
      // The http side is not reading (a paused request body): stop reading the client until it does.
      this.#isSourcePaused = true;
      this.#source.pause();
    }
  }

  /** Complete the write at once while the real socket takes more, else when it drains. */
  #afterWrite(isFlowing: boolean, callback: (err?: Error | null) => void): void {
    if (isFlowing) callback();
    else this.#source.once('drain', () => callback());
  }
}

function totalLength(chunks: Buffer[]): number {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return length;
}
