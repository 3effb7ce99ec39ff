import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RawClient } from '../src/http/raw-http.testing.js';
import { startTestServer, type TestServer } from '../src/server/testing.js';

// Issue 13, point 2: on one keep-alive connection a request starts only after the response before
// it is complete, as the established server does; a pipelined LIST must see the write sent before it.

const HEAD = 'Host: ward\r\nX-Vault-Token: root\r\n';

function contentLengthWrite(path: string, body: string): string {
  return `POST /v1/${path} HTTP/1.1\r\n${HEAD}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

function chunkedWrite(path: string, body: string): string {
  const half = Math.floor(body.length / 2);
  const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
  return `POST /v1/${path} HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n${chunk(body.slice(0, half))}${chunk(body.slice(half))}0\r\n\r\n`;
}

describe('pipelined requests on one connection run one after another', () => {
  let t: TestServer;
  let port: number;
  before(async () => {
    t = await startTestServer();
    port = Number(new URL(t.url).port);
  });
  after(() => t.stop());

  /** Sends `requests` in one write and reads as many responses. */
  async function pipeline(requests: string[]) {
    const client = await RawClient.connect(port);
    try {
      await client.write(requests.join(''));
      const responses = [];
      for (let i = 0; i < requests.length; i++) responses.push(await client.readResponse());
      return responses;
    } finally {
      client.close();
    }
  }

  for (const [framing, write] of [
    ['Content-Length', contentLengthWrite],
    ['chunked', chunkedWrite],
  ] as const) {
    it(`a LIST sent right after a write (${framing} body) lists the new key`, async () => {
      const dir = `app-${framing.toLowerCase()}`;
      const [written, listed, read] = await pipeline([
        write(`secret/data/${dir}/pipe`, JSON.stringify({ data: { v: framing } })),
        `LIST /v1/secret/metadata/${dir}/ HTTP/1.1\r\n${HEAD}\r\n`,
        `GET /v1/secret/data/${dir}/pipe HTTP/1.1\r\n${HEAD}\r\n`,
      ]);
      assert.equal(written?.status, 200, written?.body.toString());
      assert.equal(listed?.status, 200, listed?.body.toString());
      assert.deepEqual(JSON.parse(listed?.body.toString() ?? '').data.keys, ['pipe']);
      assert.deepEqual(JSON.parse(read?.body.toString() ?? '').data.data, { v: framing });
    });
  }

  it('a delete, then a read of what it deleted, then a write, in one packet: each sees the one before', async () => {
    await t.request('POST', 'secret/data/order/x', { body: { data: { n: 1 } } });
    const [deleted, read, rewritten, reread] = await pipeline([
      `DELETE /v1/secret/metadata/order/x HTTP/1.1\r\n${HEAD}\r\n`,
      `GET /v1/secret/data/order/x HTTP/1.1\r\n${HEAD}\r\n`,
      chunkedWrite('secret/data/order/x', JSON.stringify({ data: { n: 2 } })),
      `GET /v1/secret/data/order/x HTTP/1.1\r\n${HEAD}\r\n`,
    ]);
    assert.equal(deleted?.status, 204);
    assert.equal(read?.status, 404);
    assert.equal(JSON.parse(rewritten?.body.toString() ?? '').data.version, 1, 'a fresh secret after the delete');
    assert.deepEqual(JSON.parse(reread?.body.toString() ?? '').data.data, { n: 2 });
  });
});
