import type { Clock } from '@ward/base';
import type { AuthClient } from 'google-auth-library';
import { requestJson } from '../auth/common/http-json.js';
import { UpstreamError } from '../logical/errors.js';
import { type AccessToken, assertionClaims, CachedToken, jwtBearerGrant } from './auth-client.js';

export const DEFAULT_IAM_ENDPOINT = 'https://iamcredentials.googleapis.com';
export const DEFAULT_TOKEN_ENDPOINT = 'https://oauth2.googleapis.com/token';

/** Whom to act as, and where: the established `impersonate_principal` with domain-wide delegation. */
export interface Impersonation {
  /** The service account whose identity is used (`impersonate_principal`), e.g. `x@p.iam.gserviceaccount.com`. */
  principal: string;
  /** The Workspace user the principal acts for (the assertion's `sub`). */
  subject: string;
  scope: string;
  /** IAM Credentials' base URL. */
  iamEndpoint: string;
  /** The OAuth 2.0 token endpoint, also the assertion's audience. */
  tokenEndpoint: string;
}

/**
 * A token of a service account for which the server holds no key, as the established
 * `impersonate.CredentialsTokenSource` with a subject gets one: the server's own credentials (`base`,
 * its Application Default Credentials) have IAM Credentials `signJwt` sign the JWT bearer assertion
 * as the principal, which is then traded at the token endpoint. Cached until shortly before it expires.
 */
export class ImpersonatedTokenSource {
  private readonly cache: CachedToken;

  constructor(
    private readonly base: AuthClient,
    private readonly target: Impersonation,
    clock: Clock,
  ) {
    this.cache = new CachedToken(clock, (nowS) => this.fetchToken(nowS));
  }

  async token(): Promise<string> {
    return (await this.cache.get()).token;
  }

  private async fetchToken(nowS: number): Promise<AccessToken> {
    const t = this.target;
    let baseToken: string | null | undefined;
    try {
      baseToken = (await this.base.getAccessToken()).token;
    } catch (cause) {
      throw new UpstreamError(
        `no Application Default Credentials to impersonate ${t.principal}: ${(cause as Error).message}`,
        {
          cause,
        },
      );
    }
    if (!baseToken) throw new UpstreamError(`no Application Default Credentials to impersonate ${t.principal}`);
    const claims = assertionClaims(t.principal, t.tokenEndpoint, t.scope, nowS, t.subject);
    const answer = await requestJson({
      url: `${t.iamEndpoint}/v1/projects/-/serviceAccounts/${encodeURIComponent(t.principal)}:signJwt`,
      method: 'POST',
      headers: { Authorization: `Bearer ${baseToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ payload: JSON.stringify(claims) }),
      service: 'IAM Credentials',
    });
    const body = answer.body as { signedJwt?: unknown; error?: { message?: unknown } } | undefined;
    if (answer.status !== 200 || typeof body?.signedJwt !== 'string') {
      const why = typeof body?.error?.message === 'string' ? `: ${body.error.message}` : '';
      throw new UpstreamError(`IAM Credentials signJwt for ${t.principal} answered ${answer.status}${why}`);
    }
    return jwtBearerGrant(t.tokenEndpoint, body.signedJwt, t.principal, nowS);
  }
}
