import { type Client, clientOver } from './client.js';
import { createTransport, type FetchFunction } from './transport.js';

/** One request the double received. */
export interface RecordedCall {
  method: string;
  /** Path below `/v1/`, without the query string. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined. */
  body: unknown;
}

/** What an intercept answers: a status and a JSON body (omit `body` for an empty answer). */
export interface Reply {
  status: number;
  body?: unknown;
}

/** A scripted server, in the spirit of undici's MockAgent: intercepts are matched by method and path. */
export interface FetchDouble {
  /** Answer `method path` (path below `/v1/`) with `reply`, every time it is asked. */
  on(method: string, path: string, reply: Reply | ((call: RecordedCall) => Reply)): FetchDouble;
  /** Every request so far, oldest first. */
  readonly calls: RecordedCall[];
  readonly fetch: FetchFunction;
}

/** A fetch double; an unmatched request rejects, as MockAgent does with net connect disabled. */
export function createFetchDouble(): FetchDouble {
  const intercepts = new Map<string, Reply | ((call: RecordedCall) => Reply)>();
  const calls: RecordedCall[] = [];
  const double: FetchDouble = {
    calls,
    on(method, path, reply) {
      intercepts.set(`${method.toUpperCase()} ${path}`, reply);
      return double;
    },
    fetch: async (url, init) => {
      const u = new URL(url);
      const call: RecordedCall = {
        method: (init.method ?? 'GET').toUpperCase(),
        path: decodeURIComponent(u.pathname.replace(/^\/v1\//, '')),
        query: Object.fromEntries(u.searchParams),
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const intercept = intercepts.get(`${call.method} ${call.path}`);
      if (!intercept) throw new TypeError(`fetch failed: no intercept for ${call.method} ${call.path}`);
      const reply = typeof intercept === 'function' ? intercept(call) : intercept;
      const text = reply.body === undefined ? null : JSON.stringify(reply.body);
      return new Response(text, { status: reply.status, headers: { 'Content-Type': 'application/json' } });
    },
  };
  return double;
}

/** A client wired to a fresh fetch double: script answers with `double.on`, inspect `double.calls`. */
export function createClientDouble(options: { token?: string; namespace?: string } = {}): {
  client: Client;
  double: FetchDouble;
} {
  const double = createFetchDouble();
  const client = clientOver(createTransport({ address: 'http://ward.test', ...options, fetch: double.fetch }));
  return { client, double };
}
