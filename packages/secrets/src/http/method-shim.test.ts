import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MethodShim } from './method-shim.js';
import { Prng, randomRequests, randomSplit } from './random-requests.testing.js';

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

  it('keeps following after an Upgrade header without `Connection: upgrade`, as llhttp does', () => {
    const input = 'GET /a HTTP/1.1\r\nUpgrade: h2c\r\nConnection: keep-alive\r\n\r\nLIST /b HTTP/1.1\r\n\r\n';
    assert.equal(run([input]).output, input.replace('LIST /b HTTP/1.1\r\n', listRewritten('/b')));
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
      'an upgrade': 'GET /ws HTTP/1.1\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\n\r\n',
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
      const random = new Prng(`method-shim:${seed}`);
      const requests = randomRequests(random, 30, ['LIST', 'LIST', 'GET', 'POST', 'PUT', 'DELETE', 'LISTEN', 'LIS']);
      const input = requests.map((r) => r.text).join('');
      const expected = requests
        .map((r) => (r.method === 'LIST' ? r.text.replace(/LIST .*\r\n/, listRewritten(r.path)) : r.text))
        .join('');
      const chunks = randomSplit(random, Buffer.from(input, 'latin1'));
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
