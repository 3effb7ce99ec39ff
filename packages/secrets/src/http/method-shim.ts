/**
 * Node's HTTP parser (llhttp) knows a fixed list of methods and answers 400 to any other one
 * before JavaScript sees the request, but Vault clients send `LIST`. A `MethodShim` sits between
 * a connection's bytes and that parser and rewrites the request line of every LIST request:
 *
 *     LIST /v1/secret/metadata/ HTTP/1.1\r\n   becomes
 *     GET /v1/secret/metadata/ HTTP/1.1\r\n<marker>: 1\r\n
 *
 * The listener then turns a request carrying the marker header back into LIST.
 *
 * To know where the next request starts on keep-alive and pipelined connections, the shim follows
 * HTTP/1.1 message framing (the head up to its empty line, then a Content-Length or chunked body),
 * nothing more. It rejects nothing. When it meets something it does not understand (a head over
 * 64 KiB, conflicting lengths, an unknown transfer coding, an upgrade, CONNECT), it passes the rest of the
 * connection through untouched: llhttp then gives its usual answer, and a later LIST on that
 * connection gets the 400 it would get without the shim. Where it is lenient (a bare LF, say), llhttp
 * is strict and closes the connection, so the two never disagree about a message llhttp accepts.
 *
 * Bytes are passed on as slices of the input; only the method and the marker are new buffers.
 */

const CR = 0x0d;
const LF = 0x0a;
const SP = 0x20;
const HT = 0x09;
const LIST = Buffer.from('LIST', 'latin1');
const GET_SP = Buffer.from('GET ', 'latin1');

/** Past this, a head is not one we want to follow; llhttp's own limit (16 KiB by default) is lower. */
const MAX_HEAD_BYTES = 64 * 1024;
/** The headers that decide where a request ends. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'upgrade']);
/** The longest method llhttp knows is 11 bytes (MKACTIVITY, MKCALENDAR); longer tokens are garbage. */
const MAX_METHOD_BYTES = 32;
/** Chunk sizes above this are not real; bodies that large are refused long before by max_request_size. */
const MAX_CHUNK_SIZE = 2 ** 48;

type State =
  | 'method'
  | 'requestLine'
  | 'headers'
  | 'body'
  | 'chunkSize'
  | 'chunkExtension'
  | 'chunkData'
  | 'chunkDataEnd'
  | 'trailers'
  | 'passThrough';

/** One connection's rewriter. Feed it the client's bytes in order; it returns the bytes to parse. */
export class MethodShim {
  readonly #markerLine: Buffer;
  #state: State = 'method';
  /** The method token so far. */
  #method = '';
  /** How many bytes of `LIST` the method matches so far; they are held back until we know. -1: no match. */
  #listMatched = 0;
  #isList = false;
  /** Bytes of the current head (or chunk-size line, or trailer section) seen so far. */
  #headBytes = 0;
  /** A header or trailer line that a chunk boundary cut in two. */
  #carry: Buffer[] = [];
  #contentLength: number | undefined;
  #transferEncoding: string | undefined;
  #hasUpgradeHeader = false;
  #hasConnectionUpgrade = false;
  /** The head has framing we do not follow (duplicate or invalid lengths, an obs-folded length). */
  #isUnframeable = false;
  #lastHeaderFrames = false;
  /** Body bytes (Content-Length or current chunk) still to skip; or the chunk size being read. */
  #remaining = 0;
  #chunkSizeDigits = 0;

  /** @param markerHeaderName The header added to each rewritten LIST request; a token, lower case. */
  constructor(markerHeaderName: string) {
    this.#markerLine = Buffer.from(`${markerHeaderName}: 1\r\n`, 'latin1');
  }

  /** Whether the shim has given up following this connection and passes everything through. */
  get isPassingThrough(): boolean {
    return this.#state === 'passThrough';
  }

  /**
   * The bytes to hand to the HTTP parser for `chunk`, in order. Mostly slices of `chunk` (or `chunk`
   * itself); may be empty while the first bytes of a possible `LIST` are held back.
   */
  push(chunk: Buffer): Buffer[] {
    if (this.#state === 'passThrough') return [chunk];
    const out: Buffer[] = [];
    let from = 0; // the first byte of `chunk` not yet passed on
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      switch (this.#state) {
        case 'method':
          from = this.#methodByte(chunk, i, from, out);
          i++;
          break;
        case 'requestLine': {
          const lf = chunk.indexOf(LF, i);
          const end = lf === -1 ? n : lf + 1;
          this.#headBytes += end - i;
          i = end;
          if (this.#headBytes > MAX_HEAD_BYTES) {
            this.#state = 'passThrough';
          } else if (lf !== -1) {
            if (this.#isList) {
              out.push(chunk.subarray(from, i), this.#markerLine);
              from = i;
            }
            this.#state = 'headers';
          }
          break;
        }
        case 'headers':
        case 'trailers':
          i = this.#readLine(chunk, i);
          break;
        case 'body':
        case 'chunkData': {
          const take = Math.min(this.#remaining, n - i);
          this.#remaining -= take;
          i += take;
          if (this.#remaining > 0) break;
          if (this.#state === 'body') this.#reset();
          else this.#state = 'chunkDataEnd';
          break;
        }
        case 'chunkSize':
        case 'chunkExtension':
        case 'chunkDataEnd':
          this.#chunkByte(chunk[i]!);
          i++;
          break;
        case 'passThrough':
          i = n;
          break;
      }
    }
    if (from === 0 && out.length === 0) return [chunk];
    if (from < n) out.push(chunk.subarray(from));
    return out;
  }

  /** The bytes still held back when the client's stream ends (the start of a method that was not LIST). */
  end(): Buffer[] {
    return this.#state === 'method' && this.#listMatched > 0 ? [LIST.subarray(0, this.#listMatched)] : [];
  }

  /**
   * One byte of a method, or of the empty lines before one. Bytes that may start `LIST` are held
   * back; returns the new start of the bytes of `chunk` not yet passed on.
   */
  #methodByte(chunk: Buffer, i: number, from: number, out: Buffer[]): number {
    const b = chunk[i]!;
    // llhttp skips empty lines before a request line; so do we.
    if (this.#method.length === 0 && (b === CR || b === LF)) return from;
    this.#headBytes++;
    if (this.#listMatched >= 0 && this.#listMatched < LIST.length && b === LIST[this.#listMatched]) {
      if (this.#listMatched === 0 && i > from) out.push(chunk.subarray(from, i));
      this.#listMatched++;
      this.#method += String.fromCharCode(b);
      return i + 1;
    }
    if (b === SP && this.#listMatched === LIST.length) {
      out.push(GET_SP);
      this.#isList = true;
      this.#state = 'requestLine';
      return i + 1;
    }
    let next = from;
    if (this.#listMatched > 0) {
      out.push(LIST.subarray(0, this.#listMatched));
      next = i;
    }
    this.#listMatched = -1;
    if (b === SP) this.#state = 'requestLine';
    else if (b === CR || b === LF || this.#method.length >= MAX_METHOD_BYTES) this.#state = 'passThrough';
    else this.#method += String.fromCharCode(b);
    return next;
  }

  /** Reads header or trailer lines from `i` on; returns where it stopped (after the empty line, or `n`). */
  #readLine(chunk: Buffer, i: number): number {
    const lf = chunk.indexOf(LF, i);
    if (lf === -1) {
      this.#headBytes += chunk.length - i;
      if (this.#headBytes > MAX_HEAD_BYTES) this.#state = 'passThrough';
      else this.#carry.push(chunk.subarray(i));
      return chunk.length;
    }
    this.#headBytes += lf + 1 - i;
    if (this.#headBytes > MAX_HEAD_BYTES) {
      this.#state = 'passThrough';
      return chunk.length;
    }
    let line = chunk;
    let start = i;
    let end = lf;
    if (this.#carry.length > 0) {
      this.#carry.push(chunk.subarray(i, lf));
      line = Buffer.concat(this.#carry);
      this.#carry = [];
      start = 0;
      end = line.length;
    }
    if (end > start && line[end - 1] === CR) end--;
    if (end === start) this.#endOfSection();
    else if (this.#state === 'headers') this.#header(line, start, end);
    return lf + 1;
  }

  /** Notes what a header line says about framing; every other header is ignored. */
  #header(line: Buffer, start: number, end: number): void {
    const first = line[start]!;
    if (first === SP || first === HT) {
      // An obs-fold continues the previous header; if that one decided framing, we cannot follow.
      if (this.#lastHeaderFrames) this.#isUnframeable = true;
      return;
    }
    this.#lastHeaderFrames = false;
    // Only content-length (14), connection (10), transfer-encoding (17) and upgrade (7) matter: skip
    // the rest by first letter and length, without making strings.
    const lower = first | 0x20;
    if (lower !== 0x63 && lower !== 0x74 && lower !== 0x75) return;
    const colon = line.indexOf(0x3a, start);
    if (colon === -1 || colon >= end) return;
    const length = colon - start;
    if (lower === 0x63 ? length !== 14 && length !== 10 : length !== (lower === 0x74 ? 17 : 7)) return;
    const name = line.toString('latin1', start, colon).toLowerCase();
    if (!FRAMING_HEADERS.has(name)) return;
    this.#lastHeaderFrames = true;
    const value = line.toString('latin1', colon + 1, end).trim();
    if (name === 'upgrade') {
      this.#hasUpgradeHeader = true;
    } else if (name === 'connection') {
      if (value.split(',').some((token) => token.trim().toLowerCase() === 'upgrade')) this.#hasConnectionUpgrade = true;
    } else if (name === 'transfer-encoding') {
      this.#transferEncoding = this.#transferEncoding === undefined ? value : `${this.#transferEncoding},${value}`;
    } else if (this.#contentLength !== undefined || !/^[0-9]{1,15}$/.test(value)) {
      // llhttp refuses a second Content-Length and anything but digits.
      this.#isUnframeable = true;
    } else {
      this.#contentLength = Number(value);
    }
  }

  /** The empty line: after a head, the body (if any) starts; after trailers, the next request. */
  #endOfSection(): void {
    if (this.#state === 'trailers') {
      this.#reset();
      return;
    }
    const te = this.#transferEncoding;
    const isChunked = te !== undefined && te.split(',').pop()?.trim().toLowerCase() === 'chunked';
    if (
      this.#isUnframeable ||
      (te !== undefined && (!isChunked || this.#contentLength !== undefined)) ||
      // The bytes after an upgrade or CONNECT belong to another protocol. llhttp, like us, takes an
      // Upgrade header without `Connection: upgrade` for an ordinary request.
      (this.#hasUpgradeHeader && this.#hasConnectionUpgrade) ||
      this.#method === 'CONNECT'
    ) {
      this.#state = 'passThrough';
    } else if (isChunked) {
      this.#startChunk();
    } else if (this.#contentLength) {
      this.#remaining = this.#contentLength;
      this.#state = 'body';
    } else {
      this.#reset(); // a request without Content-Length or chunked coding has no body
    }
  }

  /** One byte of a chunk-size line (`1a;ext=v\r\n`) or of the CRLF after chunk data. */
  #chunkByte(b: number): void {
    if (++this.#headBytes > MAX_HEAD_BYTES) {
      this.#state = 'passThrough';
      return;
    }
    if (this.#state === 'chunkDataEnd') {
      if (b === LF) this.#startChunk();
      else if (b !== CR) this.#state = 'passThrough';
      return;
    }
    if (b === LF) {
      if (this.#chunkSizeDigits === 0) {
        this.#state = 'passThrough';
      } else if (this.#remaining === 0) {
        this.#headBytes = 0;
        this.#state = 'trailers';
      } else {
        this.#state = 'chunkData';
      }
      return;
    }
    if (this.#state === 'chunkExtension' || b === CR) return;
    const digit = hexValue(b);
    if (digit >= 0) {
      this.#remaining = this.#remaining * 16 + digit;
      this.#chunkSizeDigits++;
      if (this.#remaining > MAX_CHUNK_SIZE) this.#state = 'passThrough';
    } else if (b === 0x3b || b === SP || b === HT) {
      this.#state = 'chunkExtension';
    } else {
      this.#state = 'passThrough';
    }
  }

  #startChunk(): void {
    this.#state = 'chunkSize';
    this.#remaining = 0;
    this.#chunkSizeDigits = 0;
    this.#headBytes = 0;
  }

  /** Ready for the next request line. */
  #reset(): void {
    this.#state = 'method';
    this.#method = '';
    this.#listMatched = 0;
    this.#isList = false;
    this.#headBytes = 0;
    this.#carry = [];
    this.#contentLength = undefined;
    this.#transferEncoding = undefined;
    this.#hasUpgradeHeader = false;
    this.#hasConnectionUpgrade = false;
    this.#isUnframeable = false;
    this.#lastHeaderFrames = false;
    this.#remaining = 0;
  }
}

function hexValue(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  const lower = b | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}
