import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { AcmeProblem } from './jws.js';

const VALIDATION_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 10;
const MAX_URL_LENGTH = 2000;
/** A key authorization is ~87 characters; a longer answer is not one (as established: 512 bytes at most). */
const MAX_BODY_BYTES = 512;

/** The host part of an http URL for `name`: an IPv6 address in brackets. */
const hostOf = (name: string) => (isIP(name) === 6 ? `[${name}]` : name);

/** One GET of `url`: its status, `Location` and at most MAX_BODY_BYTES + 1 bytes of body. */
function get(
  url: URL,
  lookup: LookupFunction | undefined,
): Promise<{ status: number; location?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'GET',
        timeout: VALIDATION_TIMEOUT_MS,
        // A redirect to https is followed without checking the certificate, as established.
        ...(url.protocol === 'https:' ? { rejectUnauthorized: false } : {}),
        ...(lookup ? { lookup } : {}),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES + 1) chunks.push(chunk);
          else res.destroy();
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            ...(res.headers.location ? { location: res.headers.location } : {}),
            body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES + 1),
          });
        res.once('end', done);
        res.once('close', done);
      },
    );
    req.once('timeout', () => req.destroy(new Error('timed out')));
    req.once('error', reject);
    req.end();
  });
}

/**
 * Whether `http://<name>/.well-known/acme-challenge/<token>` answers the key authorization
 * (RFC 8555 8.3): fetched on port 80, as the protocol fixes, following up to 10 redirects; names are
 * found through `lookup` (`config/acme` `dns_resolver`) when given.
 */
export async function validateHttp01(
  name: string,
  token: string,
  keyAuthorization: string,
  lookup?: LookupFunction,
): Promise<void> {
  let url = new URL(`http://${hostOf(name)}/.well-known/acme-challenge/${token}`);
  let answer: Awaited<ReturnType<typeof get>>;
  for (let redirects = 0; ; redirects++) {
    try {
      answer = await get(url, lookup);
    } catch (err) {
      throw new AcmeProblem(
        'connection',
        `http-01: failed to fetch path ${url}: ${err instanceof Error ? err.message : err}`,
        400,
      );
    }
    if (answer.status < 300 || answer.status > 399 || !answer.location) break;
    if (redirects + 1 >= MAX_REDIRECTS)
      throw new AcmeProblem('connection', `http-01: too many redirects: ${redirects + 1}`, 400);
    url = new URL(answer.location, url);
    if (url.href.length > MAX_URL_LENGTH)
      throw new AcmeProblem('connection', `http-01: redirect url length too long: ${url.href.length}`, 400);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new AcmeProblem('connection', `http-01: redirect to ${url.protocol} refused`, 400);
  }
  if (answer.status !== 200)
    throw new AcmeProblem('incorrectResponse', `the challenge answered HTTP ${answer.status}`, 400);
  if (answer.body.length > MAX_BODY_BYTES)
    throw new AcmeProblem(
      'incorrectResponse',
      `http-01: response too large: received more than ${MAX_BODY_BYTES} bytes`,
      400,
    );
  // RFC 8555 8.3: whitespace at the end of the body is ignored.
  if (answer.body.toString('utf8').trim() !== keyAuthorization)
    throw new AcmeProblem('incorrectResponse', 'the challenge answered another key authorization', 400);
}
