import { useEffect } from 'preact/hooks';
import { OIDC_CHANNEL, type OidcCallbackMessage } from '../../api/oidc-login.js';
import type { ScreenProps } from '../../screen.js';

/**
 * The OIDC popup's landing page (`/ui/vault/auth/<mount>/oidc/callback`): hands the provider's
 * answer (in the query, the fragment, or POSTed with `form_post`) to the signing-in tab and closes itself.
 */
export function OidcCallback({ params }: ScreenProps) {
  const mount = (params.mount ?? '').replace(/\/oidc\/callback$/, '');
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    // A provider answering in a fragment (implicit id_token) puts the values after `#`.
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    // One answering with form_post POSTs them here; the server puts them in a <meta> of this page
    // (http/ui-oidc-form-post.ts), since the page may run no inline script.
    const posted = new URLSearchParams(
      document.querySelector<HTMLMetaElement>('meta[name="ward-oidc-response"]')?.content ?? '',
    );
    const get = (k: string) => posted.get(k) ?? query.get(k) ?? fragment.get(k) ?? '';
    const message: OidcCallbackMessage = { mount, state: get('state'), code: get('code') };
    if (get('id_token')) message.idToken = get('id_token');
    const channel = new BroadcastChannel(OIDC_CHANNEL);
    channel.postMessage(message);
    channel.close();
    window.close();
  }, [mount]);
  return (
    <main id="main" class="page">
      <h1>Signing in…</h1>
      <p>You can close this window.</p>
    </main>
  );
}
