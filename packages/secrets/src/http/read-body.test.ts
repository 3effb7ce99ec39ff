import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, describe, it } from 'node:test';
import { InternalError, RequestTooLargeError } from '../logical/errors.js';
import { createListener } from './listener.js';
import { RawClient, sendJson } from './raw-http.testing.js';
import { closeAfterResponse, readBody } from './read-body.js';

/** What the handler saw of each request: bytes delivered to it before readBody refused. */
interface Seen {
  bytesWhenRefused?: number;
}

/**
 * A listener whose handler reads the body with readBody and answers 200 `{size}`, or 413 with the
 * error envelope, the way the real respond.ts will.
 */
async function start(maxRequestSize: number): Promise<{ port: number; seen: Seen }> {
  const seen: Seen = {};
  const listener = createListener({
    address: '127.0.0.1:0',
    maxRequestSize,
    handler: (req: IncomingMessage, res: ServerResponse) => {
      let delivered = 0;
      req.on('data', (chunk: Buffer) => {
        delivered += chunk.length;
      });
      readBody(req, listener.maxRequestSize).then(
        (body) => sendJson(res, 200, { size: body.length }),
        (err: unknown) => {
          assert.ok(err instanceof RequestTooLargeError);
          seen.bytesWhenRefused = delivered;
          closeAfterResponse(req, res);
          sendJson(res, 413, { errors: err.errors });
        },
      );
    },
  });
  const { port } = await listener.listen();
  after(() => listener.close({ graceMs: 0 }));
  return { port, seen };
}

/** A listener with a 1 KiB limit whose handler is `handler`. */
async function startRaw(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const listener = createListener({ address: '127.0.0.1:0', maxRequestSize: 1024, handler });
  const { port } = await listener.listen();
  after(() => listener.close({ graceMs: 0 }));
  return port;
}

function assertTooLarge(response: { status: number; headers: Record<string, string>; body: Buffer }): void {
  assert.equal(response.status, 413);
  assert.equal(response.headers.connection, 'close');
  const body = JSON.parse(response.body.toString()) as { errors: string[] };
  assert.deepEqual(body, { errors: [new RequestTooLargeError(1024).message] });
}

const head = (extra: string) => `PUT /v1/secret/data/a HTTP/1.1\r\nHost: ward\r\n${extra}\r\n`;

describe('readBody and max_request_size', () => {
  it('answers 413 to a Content-Length over the limit before the client sends the body', async () => {
    const { port, seen } = await start(1024);
    const client = await RawClient.connect(port);
    await client.write(head('Content-Length: 1000000\r\n'));
    assertTooLarge(await client.readResponse());
    assert.equal(seen.bytesWhenRefused, 0);
    await client.waitForEnd();
  });

  it('answers 413 without `100 Continue` to a client that waits to send a body over the limit', async () => {
    const { port } = await start(1024);
    const client = await RawClient.connect(port);
    await client.write(head('Content-Length: 1025\r\nExpect: 100-continue\r\n'));
    assertTooLarge(await client.readResponse());
  });

  it('closes the connection after any answer to an over-limit `Expect: 100-continue`, whose body may never come', async () => {
    const port = await startRaw((_req, res) => sendJson(res, 403, { errors: ['permission denied'] }));
    const client = await RawClient.connect(port);
    await client.write(head('Content-Length: 2048\r\nExpect: 100-continue\r\n'));
    const response = await client.readResponse();
    assert.deepEqual([response.status, response.headers.connection], [403, 'close']);
    await client.waitForEnd();
  });

  it('sends `100 Continue` for a body within the limit, then reads it', async () => {
    const { port } = await start(1024);
    const client = await RawClient.connect(port);
    await client.write(head('Content-Length: 1024\r\nExpect: 100-continue\r\n'));
    assert.equal((await client.readResponse()).status, 100);
    await client.write('x'.repeat(1024));
    const response = await client.readResponse();
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body.toString()), { size: 1024 });
  });

  it('refuses a chunked body as soon as it passes the limit, while the client is still sending', async () => {
    const { port, seen } = await start(1024);
    const client = await RawClient.connect(port);
    await client.write(head('Transfer-Encoding: chunked\r\n'));
    const chunkSize = 256;
    let chunksSent = 0;
    // The client would send 8 KiB; it waits a moment after each chunk to see whether an answer came.
    while (chunksSent < 32 && !(await client.waitForAnything(chunksSent < 4 ? 0 : 20))) {
      await client.write(`100\r\n${'y'.repeat(chunkSize)}\r\n`);
      chunksSent++;
    }
    assertTooLarge(await client.readResponse());
    assert.ok(chunksSent < 16, `answered after ${chunksSent} chunks`);
    // What reached the handler when readBody gave up: the limit and at most one chunk more.
    assert.ok(seen.bytesWhenRefused !== undefined && seen.bytesWhenRefused <= 1024 + chunkSize);
    await client.waitForEnd();
  });

  it('reads a body of exactly the limit, chunked', async () => {
    const { port } = await start(1024);
    const client = await RawClient.connect(port);
    await client.write(`${head('Transfer-Encoding: chunked\r\n')}400\r\n${'z'.repeat(1024)}\r\n0\r\n\r\n`);
    const response = await client.readResponse();
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body.toString()), { size: 1024 });
    assert.equal(response.headers.connection, 'keep-alive');
  });

  it('refuses to wait for a body that was already read', async () => {
    let failure: unknown;
    const port = await startRaw(async (req, res) => {
      await readBody(req, 1024);
      failure = await readBody(req, 1024).catch((err: unknown) => err);
      sendJson(res, 200, {});
    });
    const client = await RawClient.connect(port);
    await client.write(`${head('Content-Length: 2\r\n')}hi`);
    assert.equal((await client.readResponse()).status, 200);
    assert.ok(failure instanceof InternalError);
    client.close();
  });

  it('has no limit when max_request_size is negative', async () => {
    const { port } = await start(-1);
    const client = await RawClient.connect(port);
    const size = 3 * 1024 * 1024;
    await client.write(`${head(`Content-Length: ${size}\r\n`)}${'a'.repeat(size)}`);
    const response = await client.readResponse();
    assert.equal(response.status, 200);
    assert.deepEqual(JSON.parse(response.body.toString()), { size });
    client.close();
  });
});
