import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RawClient, type RawResponse } from '../src/http/raw-http.testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 13, point 3: every status >= 400 carries the error envelope (spec 000 "Errors"), also for the
// requests Node's HTTP parser refuses before any handler runs, and no request line but HTTP/1.x is served.

const HEALTH = 'GET /v1/sys/health HTTP/1.1\r\nHost: ward\r\n\r\n';

describe('requests the HTTP parser refuses get the error envelope', () => {
  let t: TestServer;
  let port: number;
  before(async () => {
    t = await startTestServer();
    port = Number(new URL(t.url).port);
  });
  after(() => t.stop());

  /** Writes `bytes` on a fresh connection; every response until the server closes it. */
  async function exchange(bytes: string): Promise<RawResponse[]> {
    const client = await RawClient.connect(port);
    try {
      await client.write(bytes);
      const responses: RawResponse[] = [];
      for (;;) {
        const response = await client.readResponse().catch(() => undefined);
        if (!response) return responses;
        responses.push(response);
      }
    } finally {
      client.close();
    }
  }

  function assertEnvelope(response: RawResponse | undefined, status: number): void {
    assert.ok(response, 'an answer');
    assert.equal(response.status, status, response.body.toString());
    assert.equal(response.headers['content-type'], 'application/json');
    const body = JSON.parse(response.body.toString());
    assert.ok(Array.isArray(body.errors), response.body.toString());
    assert.ok(body.errors.length > 0 && body.errors.every((e: unknown) => typeof e === 'string' && e !== ''));
    assert.equal(response.headers.connection, 'close', 'nothing after a refused request can be framed');
  }

  const refused: Array<[string, string, number]> = [
    ['an unknown method', 'FOO /v1/sys/health HTTP/1.1\r\nHost: ward\r\n\r\n', 400],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/secret/data/a HTTP/1.1\r\nHost: ward\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    [
      'a bad chunk size',
      'POST /v1/secret/data/a HTTP/1.1\r\nHost: ward\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      400,
    ],
    [
      'two Content-Lengths',
      'POST /v1/secret/data/a HTTP/1.1\r\nHost: ward\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      400,
    ],
    ['bare LF line ends', 'GET /v1/sys/health HTTP/1.1\nHost: ward\n\n', 400],
    ['a bad header name', 'GET /v1/sys/health HTTP/1.1\r\nHo st: ward\r\n\r\n', 400],
    ['HTTP/1.1 without Host', 'GET /v1/sys/health HTTP/1.1\r\n\r\n', 400],
    ['an unknown version', 'GET /v1/sys/health HTTP/3.0\r\nHost: ward\r\n\r\n', 400],
    ['a 20 KB header', `GET /v1/sys/health HTTP/1.1\r\nHost: ward\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['CONNECT', 'CONNECT /v1/sys/health HTTP/1.1\r\nHost: ward\r\n\r\n', 405],
    ['CONNECT to a host', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
  ];
  for (const [what, bytes, status] of refused) {
    it(`${what}: ${status} with {"errors":[...]} and application/json`, async () => {
      const responses = await exchange(bytes);
      assert.equal(responses.length, 1);
      assertEnvelope(responses[0], status);
    });
  }

  for (const [what, line] of [
    ['HTTP/2.0', 'GET /v1/sys/health HTTP/2.0\r\nHost: ward\r\n\r\n'],
    ['HTTP/0.9', 'GET /v1/sys/health HTTP/0.9\r\nHost: ward\r\n\r\n'],
    ['no version', 'GET /v1/sys/health\r\n\r\n'],
  ]) {
    it(`a request line with ${what} is not served: 505 with the envelope`, async () => {
      const responses = await exchange(line as string);
      assert.equal(responses.length, 1);
      assertEnvelope(responses[0], 505);
    });
  }

  it('HTTP/1.0 without Host is served', async () => {
    const [response] = await exchange('GET /v1/sys/health HTTP/1.0\r\n\r\n');
    assert.equal(response?.status, 200);
  });

  it('a refused request after a good one on a keep-alive connection: the good one is answered first', async () => {
    const responses = await exchange(`${HEALTH}${HEALTH}FOO /v1/sys/health HTTP/1.1\r\nHost: ward\r\n\r\n`);
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 200, 400],
    );
    assertEnvelope(responses[2], 400);
  });

  it('CONNECT after a good request: the good one is answered first', async () => {
    const responses = await exchange(`${HEALTH}CONNECT /v1/sys/health HTTP/1.1\r\nHost: ward\r\n\r\n`);
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 405],
    );
    assertEnvelope(responses[1], 405);
  });
});
