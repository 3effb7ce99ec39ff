import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Cancel, Clock, Logger } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';
import type { Revocation } from './revocation.js';
import type { BufferedResponse } from './upstream.js';

/** What identifies a request: two requests with the same key get the same answer from the cache. */
export interface CacheKeyInput {
  method: string;
  /** Path and query as sent. */
  target: string;
  /** The token the request is forwarded with (the proxy's own under auto-auth). */
  token: string;
  /** Headers that change what the server answers (namespace, wrapping, content type). */
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The request that produced a response, as the cache records it. */
export interface CachedRequest {
  key: string;
  pathname: string;
  namespace: string;
  token: string;
}

interface Entry {
  key: string;
  /** `root/` when the request named no namespace, as established. */
  namespace: string;
  requestPath: string;
  response: BufferedResponse;
  storedAtMs: number;
  /** For a response that created a token: the token, its accessor, and the token that created it. */
  token?: string;
  tokenAccessor?: string;
  tokenParent?: string;
  /** For a response that created a lease: the lease and the token that holds it. */
  lease?: string;
  leaseToken?: string;
  cancelExpiry: Cancel;
}

const CLEAR_TYPES: ReadonlySet<string> = new Set(['request_path', 'token', 'token_accessor', 'lease', 'all']);

/** Headers that make the server answer differently for the same path and body. */
const KEY_HEADERS = ['x-vault-namespace', 'x-vault-wrap-ttl', 'x-vault-wrap-format', 'content-type'];

/**
 * The lease-aware cache, as established: an answer that created a token or a leased secret is kept,
 * per requesting token, until its lease ends, and replayed for an identical request instead of
 * creating another. A lease is cached only when the token that asked for it is one the proxy manages
 * (its own auto-auth token, or a token it has cached), and so is a child token; an orphan token
 * always is. Revocations through the proxy evict what they revoke, a revoked token taking its leases
 * and child tokens with it. Answers without a lease (KV reads) are never kept.
 */
export class LeaseCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The proxy's own token is managed without being in the cache. */
    private readonly isAutoAuthToken: (token: string) => boolean,
  ) {}

  keyOf(input: CacheKeyInput): string {
    const hash = createHash('sha256');
    for (const part of [input.method, input.target, input.token]) hash.update(part).update('\0');
    for (const name of KEY_HEADERS) hash.update(String(input.headers[name] ?? '')).update('\0');
    return hash.update(input.body).digest('hex');
  }

  /** The cached answer for `key` with its age in seconds, or undefined. */
  get(key: string): { response: BufferedResponse; ageSeconds: number } | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    return { response: entry.response, ageSeconds: Math.floor((this.clock.now() - entry.storedAtMs) / 1000) };
  }

  /** Keeps `response` if it created a token or a lease the cache may hold (see the class comment). */
  store(request: CachedRequest, response: BufferedResponse): void {
    if (response.status !== 200 || !String(response.headers['content-type'] ?? '').startsWith('application/json'))
      return;
    if (hasNeitherLeaseNorAuth(response.body)) return;
    const secret = parseSecret(response.body);
    if (!secret) return;
    const isManaged = this.#isManaged(request.token);
    const entry: Omit<Entry, 'cancelExpiry'> = {
      key: request.key,
      namespace: request.namespace || 'root/',
      requestPath: request.pathname,
      response,
      storedAtMs: this.clock.now(),
    };
    let ttlSeconds: number;
    if (secret.leaseId) {
      if (!isManaged) return;
      Object.assign(entry, { lease: secret.leaseId, leaseToken: request.token });
      ttlSeconds = secret.leaseSeconds;
    } else if (secret.auth) {
      if (!secret.auth.isOrphan && !isManaged) return;
      Object.assign(entry, {
        token: secret.auth.token,
        tokenAccessor: secret.auth.accessor,
        tokenParent: secret.auth.isOrphan ? undefined : request.token,
      });
      ttlSeconds = secret.auth.leaseSeconds;
    } else {
      return;
    }
    // Without a lease end there is nothing to tell us when the answer stops being true.
    if (ttlSeconds <= 0) return;
    this.#evict(request.key);
    const cancelExpiry = this.clock.setTimeout(() => this.#evict(request.key), ttlSeconds * 1000);
    this.#entries.set(request.key, { ...entry, cancelExpiry });
    this.logger.debug('cache: stored', { path: request.pathname, ttlSeconds });
  }

  /** Evicts what a successful revocation revoked. */
  evictRevoked(revocation: Revocation): void {
    if (revocation.kind === 'token') this.#evictToken(revocation.token);
    else if (revocation.kind === 'token_orphan') this.#evictToken(revocation.token, { keepChildren: true });
    else if (revocation.kind === 'token_accessor') {
      const token = this.#find((e) => e.tokenAccessor === revocation.accessor)?.token;
      if (token) this.#evictToken(token);
    } else if (revocation.kind === 'lease') this.#evictWhere((e) => e.lease === revocation.lease);
    else this.#evictWhere((e) => e.lease?.startsWith(revocation.prefix) === true);
  }

  /** `POST /proxy/v1/cache-clear`: validates the request and evicts what it names. */
  clear(input: { type?: unknown; value?: unknown; namespace?: unknown }): void {
    const type = input.type;
    if (typeof type !== 'string' || !CLEAR_TYPES.has(type)) {
      throw new InvalidRequestError('type must be one of request_path, token, token_accessor, lease, all');
    }
    if (type === 'all') {
      for (const key of [...this.#entries.keys()]) this.#evict(key);
      return;
    }
    const value = input.value;
    if (typeof value !== 'string' || value === '') throw new InvalidRequestError(`value is required for type ${type}`);
    if (type === 'request_path') {
      const namespace = typeof input.namespace === 'string' && input.namespace !== '' ? input.namespace : 'root/';
      this.#evictWhere((e) => e.namespace === namespace && e.requestPath.startsWith(value));
    } else if (type === 'token') this.evictRevoked({ kind: 'token', token: value });
    else if (type === 'token_accessor') this.evictRevoked({ kind: 'token_accessor', accessor: value });
    else this.evictRevoked({ kind: 'lease', lease: value });
  }

  /** Drops every entry and its timer (at shutdown). */
  close(): void {
    this.clear({ type: 'all' });
  }

  #isManaged(token: string): boolean {
    return token !== '' && (this.isAutoAuthToken(token) || this.#find((e) => e.token === token) !== undefined);
  }

  /** The token's own entry, its leases, and (unless kept as orphans) its child tokens, recursively. */
  #evictToken(token: string, options: { keepChildren?: boolean } = {}): void {
    this.#evictWhere((e) => e.token === token || e.leaseToken === token);
    for (const child of [...this.#entries.values()]) {
      if (child.tokenParent !== token) continue;
      if (options.keepChildren) child.tokenParent = undefined;
      else if (child.token) this.#evictToken(child.token);
    }
  }

  #evictWhere(matches: (entry: Entry) => boolean): void {
    for (const entry of [...this.#entries.values()]) if (matches(entry)) this.#evict(entry.key);
  }

  #find(matches: (entry: Entry) => boolean): Entry | undefined {
    for (const entry of this.#entries.values()) if (matches(entry)) return entry;
    return undefined;
  }

  #evict(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    entry.cancelExpiry();
    this.#entries.delete(key);
    this.logger.debug('cache: evicted', { path: entry.requestPath });
  }
}

/** Our server's envelope as it is written when there is nothing to cache: spares a JSON parse per KV read. */
const EMPTY_LEASE = Buffer.from('"lease_id":""');
const NULL_AUTH = Buffer.from('"auth":null');

function hasNeitherLeaseNorAuth(body: Buffer): boolean {
  return body.includes(EMPTY_LEASE) && body.includes(NULL_AUTH);
}

interface ParsedSecret {
  leaseId: string;
  leaseSeconds: number;
  auth?: { token: string; accessor: string; isOrphan: boolean; leaseSeconds: number };
}

/** The lease and auth fields of a response envelope; undefined if it is not one. */
function parseSecret(body: Buffer): ParsedSecret | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const auth = parsed.auth as Record<string, unknown> | null | undefined;
  const hasToken =
    typeof auth === 'object' && auth !== null && typeof auth.client_token === 'string' && auth.client_token;
  return {
    leaseId: typeof parsed.lease_id === 'string' ? parsed.lease_id : '',
    leaseSeconds: Number(parsed.lease_duration) || 0,
    auth: hasToken
      ? {
          token: auth.client_token as string,
          accessor: String(auth.accessor ?? ''),
          isOrphan: auth.orphan === true,
          leaseSeconds: Number(auth.lease_duration) || 0,
        }
      : undefined,
  };
}
