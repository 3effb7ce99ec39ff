import { createPrivateKey } from 'node:crypto';
import type { Clock } from '@ward/base';
import { AuthClient, GoogleAuth, type gaxios } from 'google-auth-library';
import { SignJWT } from 'jose';
import { boundedText } from '../auth/common/bounded-body.js';
import { UpstreamError } from '../logical/errors.js';
import type { ServiceAccountCredentials } from './credentials.js';

/** The scope every call here asks for (IAM, Resource Manager and Compute all accept it). */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ASSERTION_LIFETIME_S = 3600;
/** A cached token is renewed this long before it expires. */
const REFRESH_MARGIN_S = 60;
const REQUEST_TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 256 * 1024;

/** A bearer token and when it expires (unix seconds). */
export interface AccessToken {
  token: string;
  expiresAtS: number;
}

/** A bearer token fetched when the cached one has a minute or less left; concurrent callers share one fetch. */
export class CachedToken {
  private cached: AccessToken | undefined;
  private pending: Promise<AccessToken> | undefined;

  constructor(
    private readonly clock: Clock,
    /** Fetches a new token; `nowS` is the clock's time in unix seconds. */
    private readonly fetchToken: (nowS: number) => Promise<AccessToken>,
  ) {}

  async get(): Promise<AccessToken> {
    const nowS = Math.floor(this.clock.now() / 1000);
    if (this.cached && this.cached.expiresAtS - REFRESH_MARGIN_S > nowS) return this.cached;
    this.pending ??= this.fetchToken(nowS)
      .then((token) => {
        this.cached = token;
        return token;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }
}

/**
 * The JWT bearer grant (RFC 7523) at `tokenUri`: a signed assertion of `account` traded for an
 * access token. A refusal or a failing endpoint is an `UpstreamError`.
 */
export async function jwtBearerGrant(
  tokenUri: string,
  assertion: string,
  account: string,
  nowS: number,
): Promise<AccessToken> {
  let response: Response;
  try {
    response = await fetch(tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: GRANT_TYPE, assertion }).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new UpstreamError(`Google's token endpoint failed: ${(cause as Error).message}`, { cause });
  }
  const text = await boundedText(response, MAX_BODY_BYTES, "Google's token endpoint");
  let body: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamError(`Google's token endpoint answered ${response.status} without JSON`);
  }
  if (!response.ok || typeof body.access_token !== 'string') {
    const why = [body.error, body.error_description].filter((v) => typeof v === 'string').join(': ');
    throw new UpstreamError(`Google's token endpoint refused ${account}: ${response.status} ${why}`.trim());
  }
  const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
  return { token: body.access_token, expiresAtS: nowS + expiresIn };
}

/** The claims of a JWT bearer assertion (RFC 7523 §3) for `scope`, acting for `subject` when set. */
export function assertionClaims(account: string, tokenUri: string, scope: string, nowS: number, subject?: string) {
  return {
    iss: account,
    aud: tokenUri,
    scope,
    iat: nowS,
    exp: nowS + ASSERTION_LIFETIME_S,
    ...(subject ? { sub: subject } : {}),
  };
}

/**
 * The OAuth 2.0 access token of a service account, from the JWT bearer grant (RFC 7523) at its
 * key file's `token_uri`: an RS256 assertion signed with the account's key (`jose`), traded for a
 * token that is cached until shortly before it expires (by the injected clock).
 */
export class ServiceAccountTokenSource {
  private readonly cache: CachedToken;

  constructor(
    private readonly credentials: ServiceAccountCredentials,
    clock: Clock,
    private readonly scope = CLOUD_PLATFORM_SCOPE,
    /** The user the account acts for (domain-wide delegation: the assertion's `sub`). */
    private readonly subject?: string,
  ) {
    this.cache = new CachedToken(clock, (nowS) => this.fetchToken(nowS));
  }

  async token(): Promise<string> {
    return (await this.accessToken()).token;
  }

  /** The cached token while it has more than a minute left, else a new one. */
  accessToken(): Promise<AccessToken> {
    return this.cache.get();
  }

  private async fetchToken(nowS: number): Promise<AccessToken> {
    const c = this.credentials;
    const assertion = await new SignJWT(assertionClaims(c.client_email, c.token_uri, this.scope, nowS, this.subject))
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(c.private_key_id ? { kid: c.private_key_id } : {}) })
      .sign(createPrivateKey(c.private_key));
    return jwtBearerGrant(c.token_uri, assertion, c.client_email, nowS);
  }
}

/** What the googleapis clients call: every request gets the account's bearer token. */
class TokenSourceClient extends AuthClient {
  constructor(private readonly source: ServiceAccountTokenSource) {
    super();
  }

  async getAccessToken(): Promise<{ token: string }> {
    return { token: await this.source.token() };
  }

  async getRequestHeaders(): Promise<Headers> {
    return new Headers({ authorization: `Bearer ${await this.source.token()}` });
  }

  async request<T>(options: gaxios.GaxiosOptions): Promise<gaxios.GaxiosResponse<T>> {
    const headers = new Headers(options.headers as HeadersInit | undefined);
    headers.set('authorization', `Bearer ${await this.source.token()}`);
    return this.transporter.request<T>({ ...options, headers, retry: false });
  }
}

/**
 * The auth client Google's SDKs get: the configured service account's, or without one the
 * server's Application Default Credentials (metadata server, `GOOGLE_APPLICATION_CREDENTIALS`).
 */
export function googleAuthClient(credentials: ServiceAccountCredentials | undefined, clock: Clock): AuthClient {
  if (credentials) return new TokenSourceClient(new ServiceAccountTokenSource(credentials, clock));
  return new AdcClient();
}

/** Application Default Credentials, resolved at the first call (none may exist until then). */
class AdcClient extends AuthClient {
  private readonly auth = new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE] });

  async getAccessToken(): Promise<{ token?: string | null }> {
    return (await this.auth.getClient()).getAccessToken();
  }

  async getRequestHeaders(url?: string | URL): Promise<Headers> {
    return (await this.auth.getClient()).getRequestHeaders(url);
  }

  async request<T>(options: gaxios.GaxiosOptions): Promise<gaxios.GaxiosResponse<T>> {
    return (await this.auth.getClient()).request<T>(options);
  }
}
