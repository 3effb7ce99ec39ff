import assert from 'node:assert/strict';
import { type RequestOptions as HttpRequestOptions, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { type Clock, cryptoRandom, FakeClock, type Logger, type Random, silentLogger } from '@ward/base';
import { BUILTIN_BACKENDS } from '../catalog.js';
import type { BuiltinBackends } from '../core/namespaces/builtin-mounts.js';
import type { BackendCatalog, BackendFactory } from '../core/router/mounts.js';
import { parseStorageBlock } from '../storage/index.js';
import { buildServer, type WardServer } from './build-server.js';
import type { ListenerConfig, StorageConfig } from './config.js';
import { initializeDev } from './dev-mode.js';
import type { SealsConfig } from './seal-config.js';

/** A response as a test sees it: status, parsed JSON body (or undefined), headers. */
export interface TestResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON shapes
  body: any;
  headers: Headers;
}

export interface RequestOptions {
  /** Token to send as X-Vault-Token; `null` sends none. Defaults to the root token. */
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestServer {
  server: WardServer;
  url: string;
  rootToken: string;
  /** The single unseal key (base64) of a dev-initialised server, `''` when uninitialised. */
  unsealKey: string;
  clock: Clock;
  /** One HTTP request to `/v1/<path>` over a real socket. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** The body of a `request` as `token` (default: root) that must answer 2xx: the assertion names the request and shows the body. */
  ok(method: string, path: string, body?: unknown, token?: string | null): Promise<TestResponse['body']>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  storage?: StorageConfig;
  listener?: Partial<ListenerConfig>;
  clock?: Clock;
  random?: Random;
  logger?: Logger;
  /** Skip initialisation (default: initialised and unsealed like dev mode, root token `root`). */
  uninitialized?: boolean;
  /** Reopen storage a previous test server initialised: unseal with its key instead of initialising. */
  reopen?: { unsealKey: string; rootToken: string };
  /** Mountable backends (default: the built-in catalog); tests add engines of their own with `withBackends`. */
  catalog?: BackendCatalog;
  /** `kms_library` stanzas (name → library path) for managed keys. */
  kmsLibraries?: ReadonlyMap<string, string>;
  /** Wraps the backends every namespace has (default: as built). */
  wrapBuiltins?: (builtins: BuiltinBackends) => BuiltinBackends;
  /** `seal` stanzas (auto-unseal); give `uninitialized` too, as dev initialisation is Shamir's. */
  seals?: SealsConfig;
}

/**
 * A whole server on 127.0.0.1 port 0 for tests: real listener, real core, in-memory
 * storage unless told otherwise. By default it is initialised and unsealed like dev mode.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = options.clock ?? new FakeClock(Date.now());
  const server = await buildServer({
    config: {
      storage: options.storage ?? parseStorageBlock('inmem', {}),
      listeners: [{ address: '127.0.0.1:0', tlsDisable: true, maxRequestSize: 0, ...options.listener }],
      logLevel: 'info',
      logJson: false,
      kmsLibraries: options.kmsLibraries ?? new Map(),
      seals: options.seals,
    },
    clock,
    random: options.random ?? cryptoRandom,
    logger: options.logger ?? silentLogger,
    catalog: options.catalog,
    wrapBuiltins: options.wrapBuiltins,
  });
  // Ready before listening, as `ward server` is.
  if (options.reopen) await server.core.submitUnsealKey(options.reopen.unsealKey);
  const creds = options.reopen ?? (options.uninitialized ? undefined : await initializeDev(server, 'root'));
  const [address] = await server.start();
  if (!address) throw new Error('server did not listen');
  const rootToken = creds?.rootToken ?? '';
  return {
    server,
    url: address.url,
    rootToken,
    unsealKey: creds?.unsealKey ?? '',
    clock,
    request: (method, path, o = {}) => request(address.url, method, path, { token: rootToken, ...o }),
    ok: async (method, path, body, token = rootToken) => {
      const res = await request(address.url, method, path, { token, body });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    stop: () => server.stop(),
  };
}

/** Sends one request to `${url}/v1/${path}` and parses a JSON reply. */
export async function request(
  url: string,
  method: string,
  path: string,
  o: RequestOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers['X-Vault-Token'] = o.token;
  const res = await fetch(`${url}/v1/${path}`, {
    method,
    headers,
    body: o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body),
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

/**
 * Replaces the KV version 1 engine a configured server mounts at `secret/` with version 2, for
 * tests of a configured server (`sys/init`) that are about version 2. Throws unless both succeed.
 */
export async function mountKvV2AtSecret(url: string, token: string): Promise<void> {
  const unmounted = await request(url, 'DELETE', 'sys/mounts/secret', { token });
  const body = { type: 'kv', description: 'key/value secret storage', options: { version: '2' } };
  const mounted = await request(url, 'POST', 'sys/mounts/secret', { token, body });
  if (unmounted.status !== 204 || mounted.status !== 204)
    throw new Error(
      `KV version 2 not mounted at secret/: ${unmounted.status}, ${mounted.status} ${JSON.stringify(mounted.body)}`,
    );
}

/**
 * Initialises the uninitialised server at `url` over HTTP as an operator does (`sys/init`, five
 * shares, threshold three) and unseals it with the first three keys. Throws unless it is unsealed.
 */
export async function initShamirAndUnseal(url: string): Promise<{ keys: string[]; rootToken: string }> {
  const init = await request(url, 'PUT', 'sys/init', { body: { secret_shares: 5, secret_threshold: 3 } });
  if (init.status !== 200) throw new Error(`sys/init: ${init.status} ${JSON.stringify(init.body)}`);
  const keys = init.body.keys as string[];
  let status: TestResponse | undefined;
  for (const key of keys.slice(0, 3)) status = await request(url, 'PUT', 'sys/unseal', { body: { key } });
  if (status?.body?.sealed !== false) throw new Error(`still sealed: ${JSON.stringify(status?.body)}`);
  return { keys, rootToken: init.body.root_token };
}

/** The built-in catalog plus test-only secrets engines (mounted through `sys/mounts` by type). */
export function withBackends(engines: Record<string, BackendFactory>): BackendCatalog {
  return { mounts: new Map([...BUILTIN_BACKENDS.mounts, ...Object.entries(engines)]), auth: BUILTIN_BACKENDS.auth };
}

/** A TCP port nothing listens on right now, for a test that must reuse one port (a restart). */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * One request with node:http, for what `fetch` cannot send: a header repeated once per value of a
 * list, a request over a Unix socket (`socketPath`). Parses a JSON reply.
 */
export function nodeRequest(options: HttpRequestOptions): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

export interface TlsRequestOptions {
  /** The CA (PEM) the server's certificate must chain to. */
  ca: string;
  /** A client certificate (PEM, a chain may follow) and its key, presented in the handshake. */
  cert?: string;
  key?: string;
  token?: string;
  body?: unknown;
}

/**
 * One request to `${url}/v1/${path}` over TLS, presenting a client certificate when given (what
 * `fetch` cannot). Parses a JSON reply.
 */
export function tlsRequest(url: string, method: string, path: string, o: TlsRequestOptions): Promise<TestResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.token) headers['x-vault-token'] = o.token;
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(`/v1/${path}`, url),
      { method, ca: o.ca, ...(o.cert ? { cert: o.cert, key: o.key } : {}), headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = text;
          }
          resolve({ status: res.statusCode ?? 0, body, headers: new Headers() });
        });
      },
    );
    req.on('error', reject);
    req.end(o.body === undefined ? undefined : JSON.stringify(o.body));
  });
}
