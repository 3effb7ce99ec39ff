import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import { InvalidRequestError } from '../logical/errors.js';
import { createListener, DEFAULT_MAX_REQUEST_SIZE, type Listener, type ListenerOptions } from './listener.js';
import { Prng, randomRequests, randomSplit } from './random-requests.testing.js';
import { type Echo, echoHandler, echoOf, RawClient, sendJson } from './raw-http.testing.js';

/** Starts a listener on 127.0.0.1, port 0, stopped when the file's tests end. */
async function start(
  options: Partial<ListenerOptions> = {},
): Promise<{ listener: Listener; port: number; url: string }> {
  const listener = createListener({ address: '127.0.0.1:0', handler: echoHandler, ...options });
  const { port, url } = await listener.listen();
  after(() => listener.close({ graceMs: 0 }));
  return { listener, port, url };
}

/** Promise.withResolvers, which Node 20 lacks. */
function withResolvers(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function markerLikeHeaders(echo: Echo): string[] {
  const names = [...Object.keys(echo.headers), ...echo.rawHeaders.filter((_, i) => i % 2 === 0)];
  return names.filter((name) => name.toLowerCase().startsWith('x-ward-list'));
}

const LIST_REQUEST = 'LIST /v1/secret/metadata/ HTTP/1.1\r\nHost: ward\r\nX-Vault-Token: root\r\n\r\n';

describe('listener: the LIST method', () => {
  it('hands a LIST request to the handler as LIST, with the headers the client sent and no others', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    await client.write(LIST_REQUEST);
    const response = await client.readResponse();
    assert.equal(response.status, 200);
    const echo = echoOf(response);
    assert.equal(echo.method, 'LIST');
    assert.equal(echo.url, '/v1/secret/metadata/');
    assert.deepEqual(echo.headers, { host: 'ward', 'x-vault-token': 'root' });
    assert.deepEqual(echo.rawHeaders, ['Host', 'ward', 'X-Vault-Token', 'root']);
    client.close();
  });

  it('serves LIST, GET, LIST one after another on one keep-alive connection', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    const methods: string[] = [];
    for (const method of ['LIST', 'GET', 'LIST']) {
      await client.write(`${method} /v1/kv/ HTTP/1.1\r\nHost: ward\r\n\r\n`);
      const response = await client.readResponse();
      assert.equal(response.headers.connection, 'keep-alive');
      methods.push(echoOf(response).method);
    }
    assert.deepEqual(methods, ['LIST', 'GET', 'LIST']);
    assert.equal(client.isEnded, false);
    client.close();
  });

  it('answers pipelined requests in order: LIST with a Content-Length body, GET, LIST with a chunked body and trailers', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    // The bodies hold request lines: they must stay body, not become more requests.
    const body = 'LIST /v1/x HTTP/1.1\r\n\r\n';
    const chunk = ', LIST /v1/y HTTP/1.1\r\n..';
    await client.write(
      `LIST /v1/a/ HTTP/1.1\r\nHost: ward\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
        'GET /v1/b HTTP/1.1\r\nHost: ward\r\n\r\n' +
        'LIST /v1/c/ HTTP/1.1\r\nHost: ward\r\nTransfer-Encoding: chunked\r\nTrailer: X-Check\r\n\r\n' +
        `5;name=value\r\nhello\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\nX-Check: done\r\n\r\n`,
    );
    const echoes = [echoOf(await client.readResponse()), echoOf(await client.readResponse())];
    echoes.push(echoOf(await client.readResponse()));
    assert.deepEqual(
      echoes.map((e) => [e.method, e.url, e.body]),
      [
        ['LIST', '/v1/a/', body],
        ['GET', '/v1/b', ''],
        ['LIST', '/v1/c/', `hello${chunk}`],
      ],
    );
    assert.deepEqual(echoes[2]?.trailers, { 'x-check': 'done' });
    assert.equal(await client.waitForAnything(50), false, 'no fourth response');
    client.close();
  });

  it('rewrites requests that arrive one byte per packet', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    await client.writeByteByByte(
      'LIST /v1/a/ HTTP/1.1\r\nHost: ward\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n0\r\nT: 1\r\n\r\n' +
        'LIST /v1/b/ HTTP/1.1\r\nHost: ward\r\nContent-Length: 2\r\n\r\nhi',
    );
    const first = echoOf(await client.readResponse());
    const second = echoOf(await client.readResponse());
    assert.deepEqual(
      [first.method, first.url, first.body, second.method, second.url, second.body],
      ['LIST', '/v1/a/', 'abc', 'LIST', '/v1/b/', 'hi'],
    );
    client.close();
  });

  it('runs a LIST pipelined behind an unfinished GET only once the GET is answered, and answers them in order', async () => {
    const started: string[] = [];
    let releaseGet = () => {};
    const { promise: isGetHandling, resolve: getHandling } = withResolvers();
    const { port } = await start({
      handler: (req: IncomingMessage, res: ServerResponse) => {
        started.push(req.method ?? '');
        if (req.method !== 'GET') return echoHandler(req, res);
        releaseGet = () => echoHandler(req, res);
        getHandling();
      },
    });
    const client = await RawClient.connect(port);
    await client.write(`GET /v1/a HTTP/1.1\r\nHost: ward\r\n\r\n${LIST_REQUEST}`);
    await isGetHandling;
    // The LIST is in the server's hands; give it every chance to run early.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(started, ['GET']);
    releaseGet();
    assert.equal(echoOf(await client.readResponse()).method, 'GET');
    assert.equal(echoOf(await client.readResponse()).method, 'LIST');
    assert.deepEqual(started, ['GET', 'LIST']);
    client.close();
  });

  it('answers random pipelined transcripts, cut into packets at random places, request by request', async () => {
    const { port } = await start();
    for (let seed = 1; seed <= 5; seed++) {
      const random = new Prng(`listener:${seed}`);
      const requests = randomRequests(random, 20, ['LIST', 'LIST', 'GET', 'POST', 'PUT', 'DELETE']);
      const client = await RawClient.connect(port);
      for (const packet of randomSplit(random, Buffer.from(requests.map((r) => r.text).join(''), 'latin1'))) {
        await client.write(packet);
      }
      const seen: string[][] = [];
      for (let i = 0; i < requests.length; i++) {
        const echo = echoOf(await client.readResponse());
        seen.push([echo.method, echo.url, echo.body]);
      }
      assert.deepEqual(
        seen,
        requests.map((r) => [r.method, r.path, r.body]),
        `seed ${seed}`,
      );
      client.close();
    }
  });

  it('refuses a lower-case `list` with 400: methods are case-sensitive, as established servers treat them', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    await client.write('list /v1/a/ HTTP/1.1\r\nHost: ward\r\n\r\n');
    const response = await client.readResponse();
    assert.equal(response.status, 400);
    await client.waitForEnd();
  });

  it('strips marker-like headers a client sends, and does not turn a GET into LIST for them', async () => {
    const { port } = await start();
    const client = await RawClient.connect(port);
    await client.write(
      'GET /v1/a HTTP/1.1\r\nHost: ward\r\nX-Ward-List-0123456789abcdef: 1\r\nx-ward-list-: 2\r\n\r\n',
    );
    const get = echoOf(await client.readResponse());
    assert.equal(get.method, 'GET');
    assert.deepEqual(markerLikeHeaders(get), []);
    await client.write('LIST /v1/a/ HTTP/1.1\r\nHost: ward\r\nx-ward-list-00: 1\r\n\r\n');
    const list = echoOf(await client.readResponse());
    assert.equal(list.method, 'LIST');
    assert.deepEqual(markerLikeHeaders(list), []);
    client.close();
  });

  it('passes the client address through to the handler', async () => {
    let seen: { remoteAddress?: string; remotePort?: number } = {};
    const { port } = await start({
      handler: (req, res) => {
        seen = { remoteAddress: req.socket.remoteAddress, remotePort: req.socket.remotePort };
        res.end();
      },
    });
    const client = await RawClient.connect(port);
    await client.write(LIST_REQUEST);
    await client.readResponse();
    assert.deepEqual(seen, { remoteAddress: '127.0.0.1', remotePort: client.socket.localPort });
    client.close();
  });
});

describe('listener: connections', () => {
  it('makes the client wait, rather than buffering, while the handler does not read the body', async () => {
    let readBody = () => {};
    const { port } = await start({
      maxRequestSize: -1,
      handler: (req, res) => {
        req.pause();
        readBody = () => {
          let size = 0;
          req.on('data', (chunk: Buffer) => {
            size += chunk.length;
          });
          req.on('end', () => sendJson(res, 200, { size }));
          req.resume();
        };
      },
    });
    const client = await RawClient.connect(port);
    // More than socket buffers hold on both sides: it can only all be sent once the handler reads.
    const body = Buffer.alloc(48 * 1024 * 1024, 'b');
    const sent = client.write(
      Buffer.concat([Buffer.from(`PUT /v1/a HTTP/1.1\r\nHost: ward\r\nContent-Length: ${body.length}\r\n\r\n`), body]),
    );
    const isSentEarly = await Promise.race([sent.then(() => true), new Promise((r) => setTimeout(r, 300, false))]);
    assert.equal(isSentEarly, false);
    readBody();
    await sent;
    const response = await client.readResponse();
    assert.deepEqual(JSON.parse(response.body.toString()), { size: body.length });
    client.close();
  });

  it('answers 408 and closes the connection when a request takes longer than requestTimeoutMs', async () => {
    const { port } = await start({ requestTimeoutMs: 200 });
    const client = await RawClient.connect(port);
    await client.write('LIST /v1/a/ HTTP/1.1\r\nHost: ward\r\n'); // and the rest never comes
    const response = await client.readResponse();
    assert.equal(response.status, 408);
    await client.waitForEnd();
  });

  it('closes a keep-alive connection idle for longer than keepAliveTimeoutMs', async () => {
    const { port } = await start({ keepAliveTimeoutMs: 100 });
    const client = await RawClient.connect(port);
    await client.write(LIST_REQUEST);
    await client.readResponse();
    const idleSince = Date.now();
    await client.waitForEnd(5_000);
    assert.ok(Date.now() - idleSince >= 100);
  });
});

describe('listener: addresses and limits', () => {
  it('binds every interface for `:port` and reports a loopback URL with the real port', async () => {
    const { port, url } = await start({ address: ':0' });
    assert.notEqual(port, 0);
    assert.equal(url, `http://127.0.0.1:${port}`);
    const client = await RawClient.connect(port);
    await client.write(LIST_REQUEST);
    assert.equal(echoOf(await client.readResponse()).method, 'LIST');
    client.close();
  });

  it('binds a bracketed IPv6 address and reports it in brackets', async () => {
    const { port, url } = await start({ address: '[::1]:0' });
    assert.equal(url, `http://[::1]:${port}`);
    const client = await RawClient.connect(port, { host: '::1' });
    await client.write(LIST_REQUEST);
    assert.equal(echoOf(await client.readResponse()).method, 'LIST');
    client.close();
  });

  it('rejects listen() when the port is taken', async () => {
    const { port } = await start();
    const second = createListener({ address: `127.0.0.1:${port}`, handler: echoHandler });
    await assert.rejects(second.listen(), (err: Error) => {
      assert.ok(err instanceof InvalidRequestError);
      assert.equal(err.message, `listener 127.0.0.1:${port}: address already in use`);
      return true;
    });
  });

  it('refuses an address without a port', () => {
    assert.throws(() => createListener({ address: '127.0.0.1', handler: echoHandler }), InvalidRequestError);
    assert.throws(() => createListener({ address: 'host:70000', handler: echoHandler }), InvalidRequestError);
  });

  it('takes 0 or no max_request_size as 32 MiB and keeps a negative one (no limit)', () => {
    const size = (maxRequestSize?: number) => createListener({ address: ':0', handler: echoHandler, maxRequestSize });
    assert.equal(DEFAULT_MAX_REQUEST_SIZE, 33_554_432);
    assert.deepEqual(
      [size().maxRequestSize, size(0).maxRequestSize, size(-1).maxRequestSize, size(10).maxRequestSize],
      [33_554_432, 33_554_432, -1, 10],
    );
  });
});

describe('listener: close()', () => {
  it('lets a request in progress finish, tells its client the connection closes, then refuses new ones', async () => {
    let release = () => {};
    const { promise: isHandling, resolve: handling } = withResolvers();
    const { listener, port } = await start({
      handler: (req: IncomingMessage, res: ServerResponse) => {
        release = () => echoHandler(req, res);
        handling();
      },
    });
    const client = await RawClient.connect(port);
    await client.write(LIST_REQUEST);
    await isHandling;
    let isClosed = false;
    const closed = listener.close().then(() => {
      isClosed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(isClosed, false, 'close() waits for the request');
    release();
    const response = await client.readResponse();
    assert.equal(echoOf(response).method, 'LIST');
    assert.equal(response.headers.connection, 'close');
    await closed;
    await client.waitForEnd();
    const refused = await new Promise<string>((resolve) => {
      connect({ host: '127.0.0.1', port }).once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? ''));
    });
    assert.equal(refused, 'ECONNREFUSED');
  });

  it('closes idle keep-alive connections at once', async () => {
    const { listener, port } = await start();
    const client = await RawClient.connect(port);
    await client.write(LIST_REQUEST);
    await client.readResponse();
    const started = Date.now();
    await listener.close();
    assert.ok(Date.now() - started < 1_000);
    await client.waitForEnd();
  });

  it('can be called again, and before listen()', async () => {
    const { listener } = await start();
    await listener.close();
    await listener.close();
    await createListener({ address: '127.0.0.1:0', handler: echoHandler }).close();
  });

  it('destroys connections still busy when the grace period ends', async () => {
    const { promise: isHandling, resolve: handling } = withResolvers();
    const { listener, port } = await start({ handler: () => handling() });
    const client = await RawClient.connect(port);
    await client.write(LIST_REQUEST);
    await isHandling;
    await listener.close({ graceMs: 50 });
    await client.waitForEnd();
  });
});
