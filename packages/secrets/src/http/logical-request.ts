import type { IncomingMessage } from 'node:http';
import { parseGoBool } from '@ward/base';
import { parseDurationSeconds } from '../framework/index.js';
import { InvalidRequestError, UnsupportedMediaTypeError, UnsupportedOperationError } from '../logical/errors.js';
import { setOwn } from '../logical/own-entries.js';
import type { Operation } from '../logical/request.js';
import { parseFormBody } from './form-body.js';
import { DEFAULT_JSON_LIMITS, type JsonLimits, parseJsonText } from './json-body.js';

/** How a verb maps to an operation; the transport shim turns the wire `LIST` into `req.method === 'LIST'`. */
export function operationOf(method: string, query: URLSearchParams): Operation {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return isListQuery(query) ? 'list' : 'read';
    case 'LIST':
      return 'list';
    case 'POST':
    case 'PUT':
      return 'update';
    case 'DELETE':
      return 'delete';
    case 'PATCH':
      return 'patch';
    default:
      throw new UnsupportedOperationError('');
  }
}

function isListQuery(query: URLSearchParams): boolean {
  const value = query.get('list');
  if (value === null) return false;
  if (value === '') return false;
  const list = parseGoBool(value);
  if (list !== undefined) return list;
  throw new InvalidRequestError('');
}

/** Query values as data: one value → string, repeated → array; `list` and `help` are reserved. */
export function queryData(query: URLSearchParams): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (query.size === 0) return data;
  for (const key of new Set(query.keys())) {
    if (key === 'list' || key === 'help') continue;
    const values = query.getAll(key);
    setOwn(data, key, values.length === 1 ? values[0] : values);
  }
  return data;
}

/**
 * Parses a request body: JSON, or a form when the client says so and the body does
 * not look like JSON (repeated form keys are joined by commas). An empty body is no data.
 */
export function parseBody(
  body: Buffer,
  contentType: string | undefined,
  limits: JsonLimits = DEFAULT_JSON_LIMITS,
): Record<string, unknown> {
  const text = body.toString('utf8');
  const firstChar = text.trimStart()[0];
  if (firstChar === undefined) return {};
  if (contentType?.startsWith('application/x-www-form-urlencoded') && firstChar !== '{' && firstChar !== '[') {
    return parseFormBody(text, limits);
  }
  return bodyObject(parseJsonText(text, limits));
}

/** A parsed JSON body as request data: it must be an object; white space only is no data. */
export function bodyObject(parsed: unknown): Record<string, unknown> {
  if (parsed === undefined) return {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InvalidRequestError('failed to parse JSON input: the body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** PATCH carries a JSON merge patch and must say so. */
export function checkPatchContentType(req: IncomingMessage): void {
  const ct = req.headers['content-type'] ?? '';
  if (!ct.startsWith('application/merge-patch+json')) {
    throw new UnsupportedMediaTypeError(`PATCH requires Content-Type of application/merge-patch+json, provided ${ct}`);
  }
}

/**
 * The client token: `X-Vault-Token` / `X-Service-Token` (first wins), else an
 * `Authorization: Bearer` value. Other `Authorization` schemes are not tokens.
 */
export function clientToken(req: IncomingMessage): string {
  const header = req.headers['x-vault-token'] ?? req.headers['x-service-token'];
  if (typeof header === 'string' && header !== '') return header;
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
}

/**
 * `X-Vault-Wrap-TTL` / `X-Service-Wrap-TTL` in seconds: a duration (`5m`) or a number of seconds.
 * `undefined` when absent or zero (no wrapping); a negative or unreadable value is a 400.
 */
export function wrapTtlHeader(req: IncomingMessage): number | undefined {
  const raw = req.headers['x-vault-wrap-ttl'] ?? req.headers['x-service-wrap-ttl'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = parseDurationSeconds(value, 'X-Vault-Wrap-TTL');
  return seconds > 0 ? seconds : undefined;
}

/** The namespace header under either name, canonicalised to `''` (root) or `a/b/`. */
export function namespaceHeader(req: IncomingMessage): string {
  const raw = req.headers['x-vault-namespace'] ?? req.headers['x-service-namespace'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().replace(/^\/+|\/+$/g, '') ?? '';
  return value === '' || value === 'root' ? '' : `${value}/`;
}

/** The query of a target without one: shared, so callers only read it. */
const NO_QUERY: URLSearchParams = new URLSearchParams();

/** The path and query of a request target, without the cost of a full `URL` on every request. */
export function splitTarget(target: string): { pathname: string; query: URLSearchParams } {
  const q = target.indexOf('?');
  if (q === -1) return { pathname: target, query: NO_QUERY };
  return { pathname: target.slice(0, q), query: new URLSearchParams(target.slice(q + 1)) };
}

/**
 * Non-empty segments of letters, digits, `_` and `-`, maybe a final `/`: nothing to decode or refuse.
 * (Every repetition starts with its `/`, so the match is linear: no backtracking on a long path.)
 */
const PLAIN_PATH = /^[\w-]+(?:\/[\w-]+)*\/?$/;

/**
 * API path below `/v1/`, URL-decoded. Non-printable characters and `.`/`..` segments
 * are refused: a path must name exactly what policies and mounts see.
 */
export function apiPath(pathname: string): string | undefined {
  if (!pathname.startsWith('/v1/')) return undefined;
  let path = pathname.slice(4);
  // The common path is checked with one scan; anything else takes the full route below.
  if (PLAIN_PATH.test(path)) return path;
  try {
    path = decodeURIComponent(path);
  } catch {
    throw new InvalidRequestError('invalid URL encoding in path');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new InvalidRequestError('path contains non-printable characters');
  if (/(^|\/)\.\.?(\/|$)/.test(path)) throw new InvalidRequestError('path must not contain "." or ".." segments');
  return path.replace(/^\/+/, '');
}
