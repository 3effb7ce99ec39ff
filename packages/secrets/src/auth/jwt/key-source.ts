import type { Clock } from '@ward/base';
import {
  type CompactVerifyResult,
  compactVerify,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  type JSONWebKeySet,
} from 'jose';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { requestJson } from '../common/http-json.js';
import { verifyWithPems } from '../common/pem-keys.js';
import type { JwksPair, JwtConfig } from './jwt-store.js';

/** How long a fetched JWKS or discovery document is used before it is fetched again. */
const MAX_AGE_MS = 60 * 60 * 1000;
/** A token naming a key not in the cached set refetches it (the provider rotated), at most this often. */
const REFETCH_COOLDOWN_MS = 10_000;
/** What the established method accepts when no `jwt_supported_algs` is set: asymmetric algorithms only. */
const ASYMMETRIC_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** The parts of an OpenID provider's discovery document the method uses. */
export interface Discovery {
  issuer: string;
  jwks_uri: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
}

interface Cached<T> {
  value: T;
  fetchedAtMs: number;
}

/** A JWT that fails its signature: the caller answers 400 with this text. */
export class SignatureError extends InvalidRequestError {}

/**
 * Where a mount's verification keys come from (static PEM keys, a JWKS URL, or an OpenID
 * provider's discovery document), with the fetched documents cached per URL and refreshed after
 * an hour, or sooner when a token names a key the cached set does not hold (the provider rotated).
 */
export class KeySource {
  readonly #discovery = new Map<string, Cached<Discovery>>();
  readonly #jwks = new Map<string, Cached<JSONWebKeySet>>();

  constructor(private readonly clock: Clock) {}

  /** Drops every cached document (the configuration changed). */
  reset(): void {
    this.#discovery.clear();
    this.#jwks.clear();
  }

  /** The provider's discovery document (`<url>/.well-known/openid-configuration`), cached. */
  async discovery(config: JwtConfig, refresh = false): Promise<Discovery> {
    const url = config.oidc_discovery_url;
    const cached = this.#discovery.get(url);
    if (cached && !refresh && this.clock.now() - cached.fetchedAtMs < MAX_AGE_MS) return cached.value;
    const answer = await requestJson({
      url: `${url.replace(/\/$/, '')}/.well-known/openid-configuration`,
      caPem: config.oidc_discovery_ca_pem || undefined,
      service: 'OIDC discovery',
    });
    const doc = answer.body as Partial<Discovery> | undefined;
    if (answer.status !== 200 || typeof doc?.issuer !== 'string' || typeof doc.jwks_uri !== 'string')
      throw new UpstreamError(`OIDC discovery: ${url} answered ${answer.status} without an issuer and jwks_uri`);
    // OpenID Connect Discovery 1.0 §4.3: the issuer must be the URL the document was asked for.
    if (doc.issuer.replace(/\/$/, '') !== url.replace(/\/$/, ''))
      throw new UpstreamError(`OIDC discovery: issuer "${doc.issuer}" did not match the discovery URL "${url}"`);
    const value: Discovery = {
      issuer: doc.issuer,
      jwks_uri: doc.jwks_uri,
      authorization_endpoint: String(doc.authorization_endpoint ?? ''),
      token_endpoint: String(doc.token_endpoint ?? ''),
      ...(typeof doc.userinfo_endpoint === 'string' ? { userinfo_endpoint: doc.userinfo_endpoint } : {}),
    };
    this.#discovery.set(url, { value, fetchedAtMs: this.clock.now() });
    return value;
  }

  /** Checks that the configured source answers (at config time), so a typo fails the write, not every login. */
  async check(config: JwtConfig): Promise<void> {
    this.reset();
    if (config.oidc_discovery_url) await this.discovery(config);
    else if (config.jwks_url) await this.#keySet(config.jwks_url, config.jwks_ca_pem, true);
    else await Promise.all(config.jwks_pairs.map((p) => this.#keySet(p.jwks_url, p.jwks_ca_pem, true)));
  }

  /**
   * The verified payload of `jwt` (a compact JWS) under the configured keys; throws
   * `SignatureError` (400) for a bad or unknown-key signature, `UpstreamError` when keys cannot be fetched.
   */
  async verify(config: JwtConfig, jwt: string): Promise<Record<string, unknown>> {
    const algorithms = config.jwt_supported_algs.length > 0 ? config.jwt_supported_algs : this.#defaultAlgs(config);
    let result: CompactVerifyResult;
    try {
      if (config.jwt_validation_pubkeys.length > 0)
        result = await verifyWithPems(jwt, config.jwt_validation_pubkeys, algorithms);
      else if (config.jwks_pairs.length > 0) result = await this.#verifyWithPairs(config.jwks_pairs, jwt, algorithms);
      else result = await this.#verifyWithSet(config, jwt, algorithms);
    } catch (err) {
      if (err instanceof UpstreamError) throw err;
      if (err instanceof errors.JOSEError) throw new SignatureError(`error validating token: ${describe(err)}`);
      throw err;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(new TextDecoder().decode(result.payload));
    } catch {
      throw new SignatureError('error validating token: payload is not JSON');
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
      throw new SignatureError('error validating token: payload is not a JSON object');
    return payload as Record<string, unknown>;
  }

  #defaultAlgs(config: JwtConfig): string[] {
    // The established OIDC default is RS256 alone (id tokens); keys from a JWKS or PEM may be any asymmetric type.
    return config.oidc_discovery_url ? ['RS256'] : ASYMMETRIC_ALGS;
  }

  async #verifyWithSet(config: JwtConfig, jwt: string, algorithms: string[]): Promise<CompactVerifyResult> {
    const { url, ca } = config.oidc_discovery_url
      ? { url: (await this.discovery(config)).jwks_uri, ca: config.oidc_discovery_ca_pem }
      : { url: config.jwks_url, ca: config.jwks_ca_pem };
    const set = await this.#keySet(url, ca, false);
    try {
      return await compactVerify(jwt, createLocalJWKSet(set), { algorithms });
    } catch (err) {
      const isUnknownKey = err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys;
      const fetchedAtMs = this.#jwks.get(url)?.fetchedAtMs ?? 0;
      if (!isUnknownKey || this.clock.now() - fetchedAtMs < REFETCH_COOLDOWN_MS) throw err;
      return compactVerify(jwt, createLocalJWKSet(await this.#keySet(url, ca, true)), { algorithms });
    }
  }

  /**
   * As established for `jwks_pairs`: the token must name its key (`kid`); the first endpoint whose
   * set holds that kid verifies it. A kid no cached set holds refetches every set (each at most
   * once per cooldown). An endpoint that fails is passed over while another answers.
   */
  async #verifyWithPairs(pairs: JwksPair[], jwt: string, algorithms: string[]): Promise<CompactVerifyResult> {
    let kid: unknown;
    try {
      kid = decodeProtectedHeader(jwt).kid;
    } catch {
      throw new SignatureError('error validating token: not a compact JWS');
    }
    if (typeof kid !== 'string' || kid === '')
      throw new SignatureError('error validating token: keyID must not be empty');
    const find = async (refresh: boolean) => {
      const failures: unknown[] = [];
      for (const { jwks_url: url, jwks_ca_pem: ca } of pairs) {
        const isStale = refresh && this.clock.now() - (this.#jwks.get(url)?.fetchedAtMs ?? 0) >= REFETCH_COOLDOWN_MS;
        const set = await this.#keySet(url, ca, isStale).catch((err: unknown) => {
          failures.push(err);
          return undefined;
        });
        if (set?.keys.some((k) => k.kid === kid)) return set;
      }
      if (failures.length === pairs.length) throw failures[0];
      return undefined;
    };
    const set = (await find(false)) ?? (await find(true));
    if (!set) throw new SignatureError(`error validating token: no key found with kid ${kid} in any JWKS endpoint`);
    return compactVerify(jwt, createLocalJWKSet(set), { algorithms });
  }

  async #keySet(url: string, ca: string, refresh: boolean): Promise<JSONWebKeySet> {
    const cached = this.#jwks.get(url);
    if (cached && !refresh && this.clock.now() - cached.fetchedAtMs < MAX_AGE_MS) return cached.value;
    const answer = await requestJson({ url, caPem: ca || undefined, service: 'JWKS' });
    const set = answer.body as Partial<JSONWebKeySet> | undefined;
    if (answer.status !== 200 || !Array.isArray(set?.keys))
      throw new UpstreamError(`JWKS: ${url} answered ${answer.status} without a key set`);
    const value: JSONWebKeySet = { keys: set.keys };
    this.#jwks.set(url, { value, fetchedAtMs: this.clock.now() });
    return value;
  }
}

function describe(err: InstanceType<typeof errors.JOSEError>): string {
  if (err instanceof errors.JWKSNoMatchingKey) return 'no known key matches the token';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'failed to verify id token signature';
  return err.message;
}
