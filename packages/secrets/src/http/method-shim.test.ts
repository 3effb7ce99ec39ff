import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SeededRandom } from '@ward/base';
import { MethodShim } from './method-shim.js';

const MARKER = 'x-ward-list-test';

/** Everything the shim gives out for `chunks`, including what it holds back until the end. */
function run(chunks: Array<string | Buffer>): { output: string; shim: MethodShim } {
  const shim = new MethodShim(MARKER);
  const out: Buffer[] = [];
  for (const chunk of chunks) out.push(...shim.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk));
  out.push(...shim.end());
  return { output: Buffer.concat(out).toString('latin1'), shim };
}

const listRewritten = (path: string) => `GET ${path} HTTP/1.1\r\n${MARKER}: 1\r\n`;

describe('MethodShim', () => {
  it('turns a LIST request line into GET and adds the marker right after it', () => {
    assert.equal(
      run(['LIST /v1/secret/ HTTP/1.1\r\nHost: a\r\n\r\n']).output,
      `${listRewritten('/v1/secret/')}Host: a\r\n\r\n`,
    );
  });

  it('leaves other methods alone, including ones that start like LIST', () => {
    for (const method of ['GET', 'LISTEN', 'LIS', 'list', 'List', 'L', 'PROPFIND']) {
      const request = `${method} /x HTTP/1.1\r\nHost: a\r\n\r\n`;
      assert.equal(run([request]).output, request, method);
    }
  });

  it('gives back the held start of a method when the stream ends there', () => {
    const shim = new MethodShim(MARKER);
    assert.deepEqual(shim.push(Buffer.from('LIS')), []);
    assert.equal(Buffer.concat(shim.end()).toString(), 'LIS');
  });

  it('does not rewrite bodies that contain request lines', () => {
    const body = 'LIST /no HTTP/1.1\r\n\r\n';
    const chunked = `${body.length.toString(16)};ext="a b"\r\n${body}\r\n0\r\nTrailer-Name: LIST /no\r\n\r\n`;
    const input =
      `POST /a HTTP/1.1\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
      `PUT /b HTTP/1.1\r\ntransfer-encoding: gzip, Chunked\r\n\r\n${chunked}` +
      'LIST /c HTTP/1.1\r\n\r\n';
    const expected = input.replace('LIST /c HTTP/1.1\r\n', listRewritten('/c'));
    assert.equal(run([input]).output, expected);
  });

  it('skips empty lines between requests, as llhttp does', () => {
    assert.equal(run(['\r\n\r\nLIST /a HTTP/1.1\r\n\r\n']).output, `\r\n\r\n${listRewritten('/a')}\r\n`);
  });

  it('passes body bytes on as the same buffers, without copying', () => {
    const shim = new MethodShim(MARKER);
    shim.push(Buffer.from('LIST /a HTTP/1.1\r\nContent-Length: 65536\r\n\r\n'));
    const body = Buffer.alloc(65_536, 'L');
    assert.deepEqual(shim.push(body), [body]);
    const next = Buffer.from('GET /b HTTP/1.1\r\n\r\n');
    const [out] = shim.push(next);
    assert.equal(out, next);
  });

  describe('stops following the connection, and passes everything through, after', () => {
    const cases: Record<string, string> = {
      'an upgrade': 'GET /ws HTTP/1.1\r\nConnection: upgrade\r\nUpgrade: websocket\r\n\r\n',
      'a CONNECT': 'CONNECT host:443 HTTP/1.1\r\nHost: host:443\r\n\r\n',
      'two Content-Length headers': 'POST /a HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx',
      'a Content-Length that is not a number': 'POST /a HTTP/1.1\r\nContent-Length: 1x\r\n\r\n',
      'Content-Length with Transfer-Encoding':
        'POST /a HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n',
      'a coding other than chunked last': 'POST /a HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n',
      'an obs-folded Content-Length': 'POST /a HTTP/1.1\r\nContent-Length:\r\n 1\r\n\r\nx',
      'a bad chunk size': 'POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'a head over 64 KiB': `GET /a HTTP/1.1\r\nX-Big: ${'b'.repeat(65_536)}\r\n\r\n`,
      'a method over 32 bytes': `${'M'.repeat(40)} /a HTTP/1.1\r\n\r\n`,
    };
    for (const [name, head] of Object.entries(cases)) {
      it(name, () => {
        const input = `${head}LIST /after HTTP/1.1\r\n\r\n`;
        const { output, shim } = run([input]);
        assert.equal(output, input);
        assert.equal(shim.isPassingThrough, true);
      });
    }
  });

  it('rewrites exactly the LIST requests of a long pipelined transcript, however it is split', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = new Prng(seed);
      const { input, expected } = transcript(random, 30);
      const chunks = split(random, Buffer.from(input, 'latin1'));
      const { output, shim } = run(chunks);
      assert.equal(shim.isPassingThrough, false, `seed ${seed}`);
      // On failure, print where the outputs part ways rather than two long strings.
      const at = [...output].findIndex((c, i) => c !== expected[i]);
      assert.equal(
        output,
        expected,
        `seed ${seed}: differs at ${at}: ${JSON.stringify(output.slice(at - 40, at + 40))}`,
      );
    }
  });
});

/** Numbers from SeededRandom: the same seed gives the same transcript and splits on every run. */
class Prng {
  readonly #random: SeededRandom;
  constructor(seed: number) {
    this.#random = new SeededRandom(`method-shim:${seed}`);
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

/** Text that looks like requests, so a body read as a head (or a head as a body) shows up. */
const NOISE = ['LIST /x HTTP/1.1\r\n', '\r\n\r\n', '\r\n', '0\r\n\r\n', 'Content-Length: 9\r\n', 'L', 'abc', ': '];

function noise(random: Prng, maxParts: number): string {
  let text = '';
  for (let i = random.int(maxParts + 1); i > 0; i--) text += random.pick(NOISE);
  return text;
}

/** `count` random requests, and what the shim must turn them into. */
function transcript(random: Prng, count: number): { input: string; expected: string } {
  let input = '';
  let expected = '';
  for (let r = 0; r < count; r++) {
    const method = random.pick(['LIST', 'LIST', 'GET', 'POST', 'PUT', 'DELETE', 'LISTEN', 'LIS']);
    const path = `/v1/p${r}/`;
    const lead = random.int(4) === 0 ? '\r\n' : '';
    const line = `${method} ${path} HTTP/1.1\r\n`;
    const body = noise(random, 6);
    let head = `Host: ward\r\nX-Note: ${noise(random, 2).replace(/[\r\n]/g, '')}\r\n`;
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
    input += lead + line + head + rest;
    expected += lead + (method === 'LIST' ? listRewritten(path) : line) + head + rest;
  }
  return { input, expected };
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
function split(random: Prng, data: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; ) {
    const size = random.int(3) === 0 ? 1 : 1 + random.int(64);
    chunks.push(data.subarray(at, at + size));
    at += size;
  }
  return chunks;
}
