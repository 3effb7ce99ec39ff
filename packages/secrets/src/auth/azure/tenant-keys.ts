import type { Clock } from '@ward/base';
import { createLocalJWKSet, type JSONWebKeySet, errors as joseErrors, jwtVerify } from 'jose';
import { type Dispatcher, request } from 'undici';
import type { AzureCloud } from '../../engines/azure/index.js';
import { InvalidRequestError, PermissionDeniedError, UpstreamError } from '../../logical/errors.js';

const TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 1024 * 1024;
/** Keys are fetched again after this, or sooner when a token names a key not seen yet. */
const KEYS_FRESH_MS = 60 * 60_000;
/** A flood of tokens naming unknown keys must not become a flood of requests to Entra ID. */
const MIN_REFETCH_MS = 10_000;

/** The claims of a managed identity's access token a login reads. */
export interface MsiClaims {
  /** The service principal's object id. */
  oid: string;
  groups: string[];
  /** The identity's resource id (`xms_mirid`), when the token carries it. */
  mirid: string;
}

interface TenantKeys {
  issuer: string;
  jwks: ReturnType<typeof createLocalJWKSet>;
  fetchedAtMs: number;
}

/**
 * Verifies access tokens against the signing keys a tenant publishes (OpenID discovery at
 * `<login endpoint>/<tenant>/.well-known/openid-configuration`; its `issuer` is the one tokens
 * must name). Keys are kept per tenant for an hour, per mount.
 */
export class TenantKeyCache {
  readonly #cache = new Map<string, TenantKeys>();
  readonly #clock: Clock;
  readonly #dispatcher: Dispatcher | undefined;

  constructor(clock: Clock, dispatcher?: Dispatcher) {
    this.#clock = clock;
    this.#dispatcher = dispatcher;
  }

  /**
   * The token's claims once signature (RS256), issuer, audience `resource` and lifetime are
   * checked; a token that fails any is a 403, Entra ID unreachable a 502.
   */
  async verify(cloud: AzureCloud, tenantId: string, resource: string, jwt: string): Promise<MsiClaims> {
    if (jwt.split('.').length !== 3) throw new InvalidRequestError('jwt is not a signed JSON web token');
    const discovery = `${cloud.activeDirectoryEndpoint}${encodeURIComponent(tenantId)}/.well-known/openid-configuration`;
    let keys = await this.#keys(discovery, false);
    const check = (k: TenantKeys) =>
      jwtVerify(jwt, k.jwks, {
        issuer: k.issuer,
        audience: resource,
        algorithms: ['RS256'],
        currentDate: new Date(this.#clock.now()),
      });
    try {
      let result: Awaited<ReturnType<typeof check>>;
      try {
        result = await check(keys);
      } catch (err) {
        if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
        keys = await this.#keys(discovery, true);
        result = await check(keys);
      }
      const claims = result.payload;
      const oid = typeof claims.oid === 'string' ? claims.oid : '';
      if (!oid) throw new PermissionDeniedError('token has no oid claim');
      const groups = Array.isArray(claims.groups)
        ? claims.groups.filter((g): g is string => typeof g === 'string')
        : [];
      return { oid, groups, mirid: typeof claims.xms_mirid === 'string' ? claims.xms_mirid : '' };
    } catch (err) {
      if (err instanceof joseErrors.JOSEError)
        throw new PermissionDeniedError(`could not verify the token: ${err.message}`);
      throw err;
    }
  }

  async #keys(discovery: string, isStale: boolean): Promise<TenantKeys> {
    const cached = this.#cache.get(discovery);
    const now = this.#clock.now();
    const age = cached ? now - cached.fetchedAtMs : Number.POSITIVE_INFINITY;
    if (cached && age < (isStale ? MIN_REFETCH_MS : KEYS_FRESH_MS)) return cached;
    const config = await this.#json(discovery);
    if (typeof config.issuer !== 'string' || typeof config.jwks_uri !== 'string')
      throw new UpstreamError('the tenant’s OpenID configuration names no issuer or jwks_uri');
    const set = await this.#json(config.jwks_uri);
    if (!Array.isArray(set.keys)) throw new UpstreamError('the tenant’s key set has no keys');
    const keys = { issuer: config.issuer, jwks: createLocalJWKSet(set as unknown as JSONWebKeySet), fetchedAtMs: now };
    this.#cache.set(discovery, keys);
    return keys;
  }

  async #json(url: string): Promise<Record<string, unknown>> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        dispatcher: this.#dispatcher,
        headers: { accept: 'application/json' },
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
    } catch (cause) {
      throw new UpstreamError(`Entra ID unreachable: ${(cause as Error).message}`, { cause });
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      if (total > MAX_BODY_BYTES) {
        res.body.destroy();
        throw new UpstreamError('Entra ID answer too large');
      }
      chunks.push(chunk as Buffer);
    }
    if (res.statusCode !== 200) throw new UpstreamError(`Entra ID answered ${res.statusCode} for ${url}`);
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body;
    } catch {
      // fall through
    }
    throw new UpstreamError(`Entra ID answered something other than a JSON object for ${url}`);
  }
}
