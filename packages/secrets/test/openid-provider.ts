import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

// A real OpenID provider for the OIDC login tests: `oidc-provider` (a certified implementation)
// on a local port. The login page is replaced by `nextUser`: whoever the test says is at the
// keyboard is logged in and consents, so the flow runs without a browser.

export interface OpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next interaction logs in as. */
  nextUser: string;
  /** Claims of each account (besides `sub`). */
  accounts: Map<string, Record<string, unknown>>;
  /** A new signing key replaces the provider's (same issuer, same port). */
  rotateKeys(): Promise<void>;
  /** The account an access token this provider issued belongs to (as a resource server checks it). */
  accessTokenAccount(token: string): Promise<string | undefined>;
  close(): Promise<void>;
}

async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

export async function startOpenIdProvider(o: {
  redirectUris: string[];
  responseTypes?: Array<'code' | 'id_token'>;
}): Promise<OpenIdProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const self: OpenIdProvider = {
    issuer,
    clientId: 'ward-test-client',
    clientSecret: 'a-client-secret-for-tests-only',
    nextUser: 'alice',
    accounts: new Map(),
    rotateKeys: async () => {
      generation += 1;
      provider = build(await signingKey(`key-${generation}`));
    },
    accessTokenAccount: async (token) => (await provider.AccessToken.find(token))?.accountId,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const build = (key: JWK) =>
    new Provider(issuer, {
      clients: [
        {
          client_id: self.clientId,
          client_secret: self.clientSecret,
          redirect_uris: o.redirectUris,
          response_types: o.responseTypes ?? ['code'],
          grant_types: o.responseTypes?.includes('id_token') ? ['implicit'] : ['authorization_code'],
        },
      ],
      jwks: { keys: [key] },
      cookies: { keys: ['cookie-key-for-tests-only'] },
      // The id token carries every claim of the granted scopes (the groups claim among them).
      conformIdTokenClaims: false,
      claims: { openid: ['sub'], email: ['email'], groups: ['groups'] },
      scopes: ['openid', 'email', 'groups'],
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx, id) => ({
        accountId: id,
        claims: async () => ({ sub: id, ...self.accounts.get(id) }),
      }),
    });
  let generation = 1;
  let provider = build(await signingKey(`key-${generation}`));
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      provider.callback()(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = self.nextUser;
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((err) => {
      res.writeHead(500).end(String(err));
    });
  });
  return self;
}

/** What a browser does between the authorization URL and the redirect back: follows redirects, keeping cookies. */
export async function browse(
  authUrl: string,
  redirectUri: string,
): Promise<{ query?: URLSearchParams; form?: URLSearchParams }> {
  const cookies = new Map<string, string>();
  let url = authUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return { query: next.searchParams };
      url = next.href;
      continue;
    }
    const html = await res.text();
    if (res.status === 200 && html.includes(`action="${redirectUri}"`)) {
      const form = new URLSearchParams();
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
        form.set(m[1] ?? '', (m[2] ?? '').replaceAll('&amp;', '&').replaceAll('&quot;', '"'));
      return { form };
    }
    throw new Error(`the provider answered ${res.status} at ${url}: ${html.slice(0, 300)}`);
  }
  throw new Error('too many redirects');
}
