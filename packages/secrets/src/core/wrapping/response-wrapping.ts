import { envelopeOf } from '../../logical/envelope.js';
import { InternalError, InvalidRequestError, LogicalError } from '../../logical/errors.js';
import type { LogicalResponse, WrapInfo } from '../../logical/response.js';
import { rfc3339Nano } from '../../logical/time.js';
import type { Router } from '../router/router.js';
import { isWrappingToken, type TokenEntry, type TokenStore } from '../tokens/index.js';

/** Where a wrapping token's cubbyhole keeps the response, relative to its namespace, as established. */
const RESPONSE_PATH = 'cubbyhole/response';

/** The parts of the core response wrapping uses. */
export interface WrappingDeps {
  tokens: TokenStore;
  /** Finds the namespace's `cubbyhole/` backend: the core knows the path, never the engine. */
  router: Router;
  /** The path of a namespace by id (`''` for root); `undefined` once it is gone. */
  namespacePath(id: string): string | undefined;
}

/** Which wrapping token: given in the body, or the caller's own (found by its accessor). */
export type WrappingTokenRef = { token: string } | { accessor: string };

/** What `sys/wrapping/lookup` shows of a wrapping token, without spending it. */
export interface WrappingLookup {
  creation_path: string;
  creation_time: string;
  creation_ttl: number;
}

/** What a wrapping token held, and the request path that produced it. */
export interface Unwrapped {
  creationPath: string;
  /** The envelope exactly as the wrapped request would have answered it. */
  envelope: Record<string, unknown>;
}

/**
 * Response wrapping, as established: the response to a request that asked for it
 * (`X-Vault-Wrap-TTL`) goes into the cubbyhole of a new single-use token, and the client gets only
 * `wrap_info` with that token. `sys/wrapping/unwrap` gives the response back once.
 */
export class ResponseWrapping {
  constructor(private readonly deps: WrappingDeps) {}

  /** Wraps the envelope of `response` (to the request `requestId` at `creationPath`). */
  async wrap(
    requestId: string,
    response: LogicalResponse,
    where: { ttlSeconds: number; creationPath: string; namespaceId: string },
  ): Promise<LogicalResponse> {
    const wrapInfo = await this.#store(envelopeOf(requestId, response), where);
    return { wrapInfo: response.auth?.accessor ? { ...wrapInfo, wrapped_accessor: response.auth.accessor } : wrapInfo };
  }

  /** The facts of a live wrapping token, which stays usable. */
  async lookup(token: string): Promise<WrappingLookup> {
    const entry = await this.deps.tokens.lookup(token);
    if (!entry || !isWrappingToken(entry.policies)) throw invalidWrappingToken();
    return {
      creation_path: entry.path,
      creation_time: rfc3339Nano(entry.creation_time_ms),
      creation_ttl: entry.creation_ttl,
    };
  }

  /** Spends the wrapping token and returns what it held; a second unwrap of it fails. */
  async unwrap(ref: WrappingTokenRef): Promise<Unwrapped> {
    const entry = await this.#spend(ref);
    try {
      const stored = await this.#cubbyhole(entry, 'read');
      const text = stored?.data?.response;
      if (typeof text !== 'string') throw invalidWrappingToken();
      return { creationPath: entry.path, envelope: JSON.parse(text) as Record<string, unknown> };
    } finally {
      // Revoking it destroys its cubbyhole too.
      await this.deps.tokens.revokeTree(entry.accessor);
    }
  }

  /** Moves what a wrapping token holds to a new one with the same TTL and creation path. */
  async rewrap(ref: WrappingTokenRef): Promise<WrapInfo> {
    const { creation_ttl: ttlSeconds, namespace_id: namespaceId = 'root' } = await this.#entry(ref);
    const { creationPath, envelope } = await this.unwrap(ref);
    return this.#store(envelope, { ttlSeconds, creationPath, namespaceId });
  }

  async #store(
    envelope: Record<string, unknown>,
    where: { ttlSeconds: number; creationPath: string; namespaceId: string },
  ): Promise<WrapInfo> {
    const { token, entry } = await this.deps.tokens.issueWrapping(where);
    await this.#cubbyhole(entry, 'create', { response: JSON.stringify(envelope) });
    return {
      token,
      accessor: entry.accessor,
      ttl: entry.ttl,
      creation_time: rfc3339Nano(entry.creation_time_ms),
      creation_path: entry.path,
    };
  }

  /** The live entry of the wrapping token `ref` names. */
  async #entry(ref: WrappingTokenRef): Promise<TokenEntry> {
    const { tokens } = this.deps;
    const entry =
      'token' in ref
        ? await tokens.lookup(ref.token)
        : // The caller's own token: the request spent its one use already.
          await tokens.lookupAccessor(ref.accessor, { includeExhausted: true });
    if (!entry || !isWrappingToken(entry.policies)) throw invalidWrappingToken();
    return entry;
  }

  /** The entry of `ref` with its one use spent (atomically: of two racing unwraps, one fails). */
  async #spend(ref: WrappingTokenRef): Promise<TokenEntry> {
    const entry = await this.#entry(ref);
    if (!('token' in ref)) return entry;
    try {
      return (await this.deps.tokens.useToken(entry)).entry;
    } catch (err) {
      if (err instanceof LogicalError && err.code === 'permission_denied') throw invalidWrappingToken();
      throw err;
    }
  }

  /** A request to the token's own `cubbyhole/response`, as the token. */
  async #cubbyhole(entry: TokenEntry, operation: 'create' | 'read', data: Record<string, unknown> = {}) {
    const namespacePath = this.deps.namespacePath(entry.namespace_id ?? 'root');
    if (namespacePath === undefined) throw invalidWrappingToken();
    const { route, relativePath } = this.deps.router.match(`${namespacePath}${RESPONSE_PATH}`);
    if (route.entry.type !== 'cubbyhole') throw new InternalError('no cubbyhole to keep the wrapped response in');
    return route.backend.handle({
      id: '',
      operation,
      path: relativePath,
      data,
      mountPoint: route.mountPoint,
      remoteAddress: '',
      caller: { accessor: entry.accessor, policies: entry.policies, entityId: '', displayName: '' },
    });
  }
}

/** A spent, expired, unknown or non-wrapping token where a wrapping token is due (400, as established). */
export function invalidWrappingToken(): InvalidRequestError {
  return new InvalidRequestError('wrapping token is not valid or does not exist');
}
