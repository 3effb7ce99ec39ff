import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api/api.js';
import { useApp } from '../../app-context.js';
import { ErrorMessage } from '../../components/error-message.js';
import { Loading, Page } from '../../components/page.js';
import type { ScreenProps } from '../../screen.js';

/** What `identity/oidc/provider/<name>/authorize` answers (raw JSON, not the envelope). */
interface AuthorizeAnswer {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

/**
 * Errors the server gives before it has accepted the redirect URI: the user agent must not be sent
 * there (RFC 6749 4.1.2.1), so they are shown here instead.
 */
const NOT_REDIRECTED = new Set(['invalid_client_id', 'invalid_redirect_uri']);

/** `redirect_uri` with the answer's parameters added to its query. */
function redirectTo(redirectUri: string, answer: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(answer)) if (v) url.searchParams.set(k, v);
  return url.href;
}

/**
 * The OpenID provider's authorization endpoint as the established UI serves it
 * (`/ui/vault/identity/oidc/provider/<name>/authorize`, named by the discovery document): once the
 * user is signed in, the request's parameters go to the API's `authorize` with the user's token,
 * and the browser is sent back to the client's redirect URI with the code (or the error) and state.
 */
export function OidcAuthorize({ params }: ScreenProps) {
  const app = useApp();
  const [error, setError] = useState<unknown>();
  const name = params.name ?? '';
  useEffect(() => {
    const query = app.router.location.query;
    const redirectUri = query.get('redirect_uri') ?? '';
    const answer = (a: AuthorizeAnswer) =>
      window.location.replace(
        redirectTo(
          redirectUri,
          a.code
            ? { code: a.code, state: a.state }
            : { error: a.error, error_description: a.error_description, state: a.state },
        ),
      );
    app.api
      .request('POST', `identity/oidc/provider/${name}/authorize`, { body: Object.fromEntries(query) })
      .then((res) => answer(res as unknown as AuthorizeAnswer))
      .catch((err: unknown) => {
        const body = err instanceof ApiError ? (err.body as AuthorizeAnswer | undefined) : undefined;
        if (body?.error && redirectUri && !NOT_REDIRECTED.has(body.error)) answer(body);
        else setError(body?.error ? new Error(`${body.error}: ${body.error_description ?? ''}`) : err);
      });
  }, [app, name]);
  return (
    <Page title="Signing in to an application">
      {error ? <ErrorMessage error={error} label="Authorization" /> : <Loading />}
    </Page>
  );
}
