// Test harness: seeded random HTTP/1.1 request transcripts, for the MethodShim property test and the
// listener's end-to-end one. Production code never imports this file.
import { SeededRandom } from '@ward/base';

/** Numbers from SeededRandom: the same seed gives the same transcript and splits on every run. */
export class Prng {
  readonly #random: SeededRandom;
  constructor(seed: string) {
    this.#random = new SeededRandom(seed);
  }
  /** An integer in [0, n). */
  int(n: number): number {
    const [a = 0, b = 0, c = 0] = this.#random.bytes(3);
    return ((a << 16) | (b << 8) | c) % n;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

export interface RandomRequest {
  method: string;
  path: string;
  /** The request as sent: optional empty line, request line, headers, empty line, body. */
  text: string;
  /** The body after de-chunking. */
  body: string;
}

/** Text that looks like requests, so a body read as a head (or a head as a body) shows up. */
const NOISE = ['LIST /x HTTP/1.1\r\n', '\r\n\r\n', '\r\n', '0\r\n\r\n', 'Content-Length: 9\r\n', 'L', 'abc', ': '];

function noise(random: Prng, maxParts: number): string {
  let text = '';
  for (let i = random.int(maxParts + 1); i > 0; i--) text += random.pick(NOISE);
  return text;
}

/**
 * `count` random requests with the given methods: no body, a Content-Length body or a chunked one
 * (extensions, trailers), bodies and header values full of request-like text, empty lines between
 * requests, and each half of an upgrade alone (which is no upgrade).
 */
export function randomRequests(random: Prng, count: number, methods: readonly string[]): RandomRequest[] {
  const requests: RandomRequest[] = [];
  for (let r = 0; r < count; r++) {
    const method = random.pick(methods);
    const path = `/v1/p${r}/`;
    const lead = random.int(4) === 0 ? '\r\n' : '';
    const body = noise(random, 6);
    let head = `Host: ward\r\nX-Note: ${noise(random, 2).replace(/[\r\n]/g, '')}\r\n`;
    head += random.pick(['', 'Upgrade: h2c\r\n', 'Connection: Upgrade\r\n', 'connection: keep-alive\r\n']);
    let rest: string;
    switch (random.int(3)) {
      case 0:
        rest = '\r\n';
        break;
      case 1:
        head += `${random.pick(['Content-Length', 'content-length', 'CONTENT-LENGTH'])}:  ${body.length} \r\n`;
        rest = `\r\n${body}`;
        break;
      default:
        head += `Transfer-Encoding: ${random.pick(['chunked', 'gzip, chunked', 'CHUNKED'])}\r\n`;
        rest = `\r\n${chunked(random, body)}`;
    }
    const text = `${lead}${method} ${path} HTTP/1.1\r\n${head}${rest}`;
    requests.push({ method, path, text, body: rest === '\r\n' ? '' : body });
  }
  return requests;
}

function chunked(random: Prng, body: string): string {
  let out = '';
  for (let at = 0; at < body.length; ) {
    const size = 1 + random.int(body.length - at);
    const extension = random.pick(['', ';a=b', ';q="x;y"']);
    out += `${size.toString(16)}${extension}\r\n${body.slice(at, at + size)}\r\n`;
    at += size;
  }
  return `${out}0\r\n${random.int(2) === 0 ? '' : 'X-Trailer: LIST /t HTTP/1.1\r\n'}\r\n`;
}

/** `data` cut at random places: single bytes often, up to 64-byte pieces. */
export function randomSplit(random: Prng, data: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; ) {
    const size = random.int(3) === 0 ? 1 : 1 + random.int(64);
    chunks.push(data.subarray(at, at + size));
    at += size;
  }
  return chunks;
}
