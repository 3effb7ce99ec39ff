import type { SecretAuth } from '@ward/secrets-client';
import type { Api } from './api.js';
import { oidcRedirectUri } from './login.js';

/** The channel the popup's landing page answers on: same-origin only, and it needs no `window.opener`. */
export const OIDC_CHANNEL = 'ward-oidc-callback';

/** What the landing page passes back: the provider's query parameters. */
export interface OidcCallbackMessage {
  mount: string;
  state: string;
  code: string;
  idToken?: string;
}

/**
 * The established UI's OIDC flow: ask the server for the provider's URL, open it in a popup, wait for
 * the popup's landing page (`/ui/vault/auth/<mount>/oidc/callback`) to pass the code back, and
 * finish the login at `oidc/callback`. The code never goes to storage.
 */
export async function oidcLogin(
  api: Api,
  options: { mount: string; role: string; namespace: string; win: Window },
): Promise<SecretAuth> {
  const { mount, role, namespace, win } = options;
  const clientNonce = randomHex(win, 16);
  const redirect = oidcRedirectUri(win.location.origin, mount);
  const res = await api.write<{ auth_url?: string }>(
    `auth/${mount}/oidc/auth_url`,
    { role, redirect_uri: redirect, client_nonce: clientNonce },
    { token: null, namespace },
  );
  const url = res?.data?.auth_url;
  if (!url) throw new Error(`no authorization URL: is ${redirect} among the role's allowed_redirect_uris?`);
  const popup = win.open(url, 'ward-oidc', 'popup,width=500,height=640');
  if (!popup) throw new Error('the browser blocked the sign-in window: allow popups for this site');
  const answer = await waitForCallback(win, popup, mount);
  const query: Record<string, string> = { state: answer.state, client_nonce: clientNonce };
  if (answer.code) query.code = answer.code;
  if (answer.idToken) query.id_token = answer.idToken;
  const done = await api.request('GET', `auth/${mount}/oidc/callback`, { token: null, namespace, query });
  if (!done?.auth) throw new Error('the server answered the OIDC callback without a token');
  return done.auth;
}

function waitForCallback(win: Window, popup: Window, mount: string): Promise<OidcCallbackMessage> {
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(OIDC_CHANNEL);
    const closedCheck = win.setInterval(() => {
      if (!popup.closed) return;
      // The landing page closes the popup right after posting: give its message a moment to arrive.
      win.setTimeout(() => {
        finish();
        reject(new Error('the sign-in window was closed before the sign-in finished'));
      }, 500);
    }, 500);
    const finish = () => {
      win.clearInterval(closedCheck);
      channel.close();
    };
    channel.onmessage = (e: MessageEvent<OidcCallbackMessage>) => {
      if (e.data?.mount !== mount) return;
      finish();
      resolve(e.data);
    };
  });
}

function randomHex(win: Window, bytes: number): string {
  return [...win.crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
