import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CodedError } from './coded-error.js';
import { BodyAlreadyReadError, type BodyErrors, readBody } from './http-body.js';

class TooLarge extends CodedError<'too_large'> {
  readonly code = 'too_large';
}
class Incomplete extends CodedError<'incomplete'> {
  readonly code = 'incomplete';
}
const ERRORS: BodyErrors = {
  tooLarge: (limit) => new TooLarge(`limit ${limit}`),
  incomplete: (cause) => new Incomplete('closed', { cause }),
};
const LIMIT = 16;

describe('readBody (the one request-body reader)', () => {
  let port = 0;
  /** What the server's reader answered for each request, in order. */
  const outcomes: Array<Promise<Buffer | Error>> = [];
  const server = createServer((req: IncomingMessage, res) => {
    const outcome = readBody(req, LIMIT, ERRORS).then(
      async (body) => {
        // A second read of the same request is a programming error, refused at once.
        await readBody(req, LIMIT, ERRORS).then(
          () => assert.fail('read twice'),
          (err) => assert.ok(err instanceof BodyAlreadyReadError),
        );
        return body;
      },
      (err: Error) => err,
    );
    outcomes.push(outcome);
    void outcome.then((o) => {
      res.shouldKeepAlive = false;
      res.end(o instanceof Error ? o.constructor.name : o);
    });
  });

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  /** Sends `chunks` (chunked unless `length` is given) and resolves with the server's outcome. */
  async function send(chunks: string[], o: { length?: number; abort?: boolean } = {}): Promise<Buffer | Error> {
    const headers = o.length === undefined ? {} : { 'content-length': String(o.length) };
    const req = request({ port, host: '127.0.0.1', method: 'POST', headers });
    req.on('error', () => {});
    req.on('response', (res) => res.resume());
    const seen = outcomes.length;
    req.flushHeaders();
    for (const chunk of chunks) req.write(chunk);
    for (let waited = 0; outcomes.length === seen; waited += 5) {
      assert.ok(waited < 5_000, 'the server never saw the request');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (o.abort) req.destroy();
    else req.end();
    return outcomes[seen] as Promise<Buffer | Error>;
  }

  it('reads a chunked body up to exactly the limit', async () => {
    assert.deepEqual(await send(['0123456789', 'abcdef']), Buffer.from('0123456789abcdef'));
  });

  it('refuses a Content-Length over the limit before reading it', async () => {
    const outcome = await send([], { length: LIMIT + 1, abort: true });
    assert.ok(outcome instanceof TooLarge);
    assert.equal(outcome.message, `limit ${LIMIT}`);
  });

  it('refuses a chunked body as soon as it passes the limit', async () => {
    assert.ok((await send(['0123456789', 'abcdefg'])) instanceof TooLarge);
  });

  it('says the body is incomplete when the client goes away in the middle', async () => {
    assert.ok((await send(['0123'], { length: 10, abort: true })) instanceof Incomplete);
  });
});
