import { createHash, createPublicKey, randomUUID, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CRC32C } from '@google-cloud/storage';

/**
 * A small Google Cloud Storage speaking the JSON API as `@google-cloud/storage` uses it:
 * resumable uploads (`POST /upload/storage/v1/b/<bucket>/o?uploadType=resumable` → a session URL
 * in `Location` → `PUT` of the bytes with `Content-Range`), `GET /storage/v1/b/<bucket>/o?prefix=`
 * (paged with `maxResults`/`pageToken`), `GET …/o/<name>?alt=media`, `DELETE …/o/<name>`;
 * `crc32c` and `md5Hash` in object resources (the SDK checks the upload against them). An object
 * exists only once its upload's last byte is in.
 *
 * Authentication is optional, as in Google's own emulators; a request that carries a bearer token
 * must carry a JWT signed by the registered service account, with the storage scope and unexpired,
 * or it is refused with 401 (`verifiedRequests` counts those accepted).
 */
export interface FakeGcs {
  endpoint: string;
  /** Makes an empty bucket. */
  addBucket(name: string): void;
  /** The bytes of an object, or undefined. */
  read(bucket: string, name: string): Buffer | undefined;
  /** Names in a bucket, sorted. */
  names(bucket: string): string[];
  /** Requests that carried a valid service-account JWT. */
  verifiedRequests(): number;
  /** The next `count` `PUT`s to upload sessions (bytes or status queries) are answered 503. */
  failUploads(count: number): void;
  /** Stops listening (and drops open connections); objects are kept for `restart`. */
  close(): Promise<void>;
  /** Listens again on the same port, after `close`. */
  restart(): Promise<void>;
}

export interface FakeGcsOptions {
  buckets: string[];
  /** The service account whose JWTs are accepted: its email and public key (PEM). */
  serviceAccount?: { email: string; publicKeyPem: string };
  /** Objects per list page (small in tests, to exercise paging). */
  pageSize?: number;
}

interface StoredObject {
  data: Buffer;
  generation: number;
  updated: string;
}

interface Session {
  bucket: string;
  name: string;
}

class GcsError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const STORAGE_SCOPE =
  /(^| )https:\/\/www\.googleapis\.com\/auth\/(devstorage\.(full_control|read_write)|cloud-platform)( |$)/;

export async function startFakeGcs(options: FakeGcsOptions): Promise<FakeGcs> {
  const buckets = new Map(options.buckets.map((b) => [b, new Map<string, StoredObject>()]));
  const sessions = new Map<string, Session>();
  let generation = 0;
  let verified = 0;
  let uploadsToFail = 0;
  const server = createServer((req, res) => void handle(req, res));
  let port = 0;
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen();
  port = (server.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;

  const bucketOf = (name: string) => {
    const objects = buckets.get(name);
    if (!objects) throw new GcsError(404, 'The specified bucket does not exist.');
    return objects;
  };
  const resource = (bucket: string, name: string, o: StoredObject) => ({
    kind: 'storage#object',
    id: `${bucket}/${name}/${o.generation}`,
    name,
    bucket,
    generation: String(o.generation),
    size: String(o.data.length),
    updated: o.updated,
    crc32c: crc32cOf(o.data),
    md5Hash: createHash('md5').update(o.data).digest('base64'),
  });

  const authenticate = (req: IncomingMessage) => {
    const header = String(req.headers.authorization ?? '');
    if (!header) return;
    const account = options.serviceAccount;
    const claims = account && verifyJwt(header.replace(/^Bearer /, ''), account.publicKeyPem);
    const isValid =
      claims?.iss === account?.email &&
      typeof claims?.exp === 'number' &&
      claims.exp * 1000 > Date.now() &&
      STORAGE_SCOPE.test(String(claims.scope ?? ''));
    if (!isValid) throw new GcsError(401, 'Invalid Credentials');
    verified++;
  };

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<unknown> {
    const method = req.method ?? 'GET';
    const upload = /^\/upload\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    if (upload && method === 'POST' && url.searchParams.get('uploadType') === 'resumable') {
      const bucket = decodeURIComponent(upload[1] ?? '');
      bucketOf(bucket);
      const body = JSON.parse((await readBody(req)).toString() || '{}') as { name?: string };
      const name = url.searchParams.get('name') ?? body.name ?? '';
      if (!name) throw new GcsError(400, 'Required parameter: name');
      const id = randomUUID();
      sessions.set(id, { bucket, name });
      res.setHeader('location', `${endpoint}/upload/storage/v1/b/${upload[1]}/o?uploadType=resumable&upload_id=${id}`);
      return {};
    }
    if (upload && method === 'PUT') {
      const id = url.searchParams.get('upload_id') ?? '';
      const session = sessions.get(id);
      if (!session) throw new GcsError(404, 'No such upload session.');
      const range = String(req.headers['content-range'] ?? '');
      const data = await readBody(req);
      if (uploadsToFail > 0) {
        uploadsToFail--;
        throw new GcsError(503, 'Backend Error');
      }
      // `bytes */*`: the client asks how much arrived; nothing is kept of an interrupted request.
      if (range.startsWith('bytes */')) return res.writeHead(308).end();
      if (!/^bytes 0-(\*|\d+)\/(\*|\d+)$/.test(range)) throw new GcsError(400, `unsupported Content-Range ${range}`);
      const objects = bucketOf(session.bucket);
      sessions.delete(id);
      const stored = { data, generation: ++generation, updated: new Date().toISOString() };
      objects.set(session.name, stored);
      return resource(session.bucket, session.name, stored);
    }
    const list = /^\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    if (list && method === 'GET') {
      const bucket = decodeURIComponent(list[1] ?? '');
      const prefix = url.searchParams.get('prefix') ?? '';
      const after = url.searchParams.get('pageToken') ?? '';
      const size = Math.min(Number(url.searchParams.get('maxResults') ?? 1000), options.pageSize ?? 1000);
      const names = [...bucketOf(bucket).keys()].filter((n) => n.startsWith(prefix) && n > after).sort();
      const page = names.slice(0, size);
      const objects = bucketOf(bucket);
      return {
        kind: 'storage#objects',
        items: page.map((n) => resource(bucket, n, objects.get(n) as StoredObject)),
        ...(names.length > size ? { nextPageToken: page[page.length - 1] } : {}),
      };
    }
    const one = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(url.pathname);
    if (one) {
      const bucket = decodeURIComponent(one[1] ?? '');
      const name = decodeURIComponent(one[2] ?? '');
      const objects = bucketOf(bucket);
      const found = objects.get(name);
      if (!found) throw new GcsError(404, `No such object: ${bucket}/${name}`);
      if (method === 'DELETE') {
        objects.delete(name);
        return res.writeHead(204).end();
      }
      if (method === 'GET' && url.searchParams.get('alt') === 'media') {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': found.data.length });
        return res.end(found.data);
      }
      if (method === 'GET') return resource(bucket, name, found);
    }
    throw new GcsError(404, `no route ${method} ${url.pathname}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    try {
      authenticate(req);
      const body = await route(req, res, new URL(req.url ?? '/', endpoint));
      if (res.headersSent || body === undefined || body === res) return;
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    } catch (err) {
      if (err instanceof BodyAbortedError || res.headersSent) return;
      const e = err instanceof GcsError ? err : new GcsError(500, String(err));
      res.writeHead(e.code, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify({ error: { code: e.code, message: e.message, errors: [{ message: e.message }] } }));
    }
  }

  return {
    endpoint,
    addBucket: (name) => {
      buckets.set(name, new Map());
    },
    read: (bucket, name) => buckets.get(bucket)?.get(name)?.data,
    names: (bucket) => [...(buckets.get(bucket)?.keys() ?? [])].sort(),
    verifiedRequests: () => verified,
    failUploads: (count) => {
      uploadsToFail = count;
    },
    close: () => closeServer(server),
    restart: listen,
  };
}

class BodyAbortedError extends Error {}

/** The whole request body; rejects when the client goes away before its end. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('aborted', () => reject(new BodyAbortedError()));
    req.on('error', () => reject(new BodyAbortedError()));
  });
}

/** The claims of an RS256 JWT whose signature `publicKeyPem` verifies, else undefined. */
function verifyJwt(token: string, publicKeyPem: string): Record<string, unknown> | undefined {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return undefined;
  const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;
  try {
    const isSigned =
      decode(header).alg === 'RS256' &&
      verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        createPublicKey(publicKeyPem),
        Buffer.from(signature, 'base64url'),
      );
    return isSigned ? decode(payload) : undefined;
  } catch {
    return undefined;
  }
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Base64 of the big-endian CRC-32C of `data`, as GCS reports it. */
function crc32cOf(data: Buffer): string {
  const crc = new CRC32C();
  crc.update(data);
  return crc.toString();
}
