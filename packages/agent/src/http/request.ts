import type { IncomingMessage } from 'node:http';
import { type BodyErrors, parseGoBool, readBody as readBodyWith } from '@ward/base';
import { InvalidRequestError, PayloadTooLargeError } from '../errors.js';

/** An HTTP request as handlers see it: parsed query, the caller's token, the body on demand. */
export interface AgentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Path captures from the route pattern (`:name`, `*`). */
  params: Record<string, string>;
  token: string | undefined;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
  /** The JSON body, `{}` when empty; 400 when not JSON. */
  body(): Promise<Record<string, unknown>>;
}

/**
 * The ACL token: `X-Cluster-Token`, then the established `X-Nomad-Token`, then
 * `Authorization: Bearer <token>` (scheme case-insensitive, first word only).
 */
export function requestToken(req: IncomingMessage): string | undefined {
  for (const h of ['x-cluster-token', 'x-nomad-token']) {
    const v = req.headers[h];
    if (typeof v === 'string' && v !== '') return v;
  }
  const auth = req.headers.authorization;
  const m = auth ? /^bearer\s+(\S+)/i.exec(auth) : null;
  return m?.[1];
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The whole request body, read before routing so that every endpoint (even one that
 * ignores its body, such as join) refuses an oversized one with 413 rather than
 * silently discarding it.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return readBodyWith(req, MAX_BODY_BYTES, BODY_ERRORS);
}

const BODY_ERRORS: BodyErrors = {
  tooLarge: () => new PayloadTooLargeError('Request body too large'),
  incomplete: (cause) => new InvalidRequestError('request body incomplete: the connection closed', { cause }),
};

/** `raw` as a JSON object, `{}` when empty; 400 when it is not one. */
export function parseJsonBody(raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8').trim();
  if (!text) return {};
  try {
    const v = JSON.parse(text);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
    return v as Record<string, unknown>;
  } catch {
    throw new InvalidRequestError('Request decode failed: body must be a JSON object');
  }
}

/** A boolean query parameter the way Go's strconv.ParseBool reads it; absent → `fallback`. */
export function queryBool(q: URLSearchParams, name: string, fallback: boolean, errorPrefix: string): boolean {
  const v = q.get(name);
  if (v === null) return fallback;
  const value = parseGoBool(v);
  if (value !== undefined) return value;
  throw new InvalidRequestError(`${errorPrefix}: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

/** An integer query parameter; absent or unparseable → `fallback`. */
export function queryInt(q: URLSearchParams, name: string, fallback: number): number {
  const v = q.get(name);
  return v !== null && /^-?\d+$/.test(v) ? Number(v) : fallback;
}
