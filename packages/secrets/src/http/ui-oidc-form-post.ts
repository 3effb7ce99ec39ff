import type { IncomingMessage } from 'node:http';
import { readBody } from './read-body.js';

/**
 * The OIDC answer a provider POSTs to the UI's landing page when the method's
 * `oidc_response_mode` is `form_post` (issue 34). The page has no inline script, so the answer is
 * handed to it in a `<meta>` element of the page the POST answers: the app reads it there, as it
 * reads the query of a `query` answer. The code never goes into a URL, the history or a log.
 */

/** The established UI's landing page: `/ui/vault/auth/<mount>/oidc/callback`. */
const CALLBACK = /^\/ui\/vault\/auth\/.+\/oidc\/callback$/;

/** Enough for a provider's id token (a few kilobytes) with room to spare; more is refused (413). */
export const FORM_POST_LIMIT_BYTES = 64 * 1024;

/** The provider's answer fields the page uses; anything else the form carries is dropped. */
const KEPT = ['code', 'state', 'id_token', 'error', 'error_description'] as const;

/** The name of the `<meta>` element that carries the answer (read by screens/auth/oidc-callback.tsx). */
export const OIDC_RESPONSE_META = 'ward-oidc-response';

export function isOidcCallbackPath(pathname: string): boolean {
  return CALLBACK.test(pathname);
}

export function isFormEncoded(req: IncomingMessage): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded';
}

/** The answer's fields from the POSTed form, each once (the first), in a query string. */
export async function readOidcFormPost(req: IncomingMessage): Promise<URLSearchParams> {
  const form = new URLSearchParams((await readBody(req, FORM_POST_LIMIT_BYTES)).toString('utf8'));
  const kept = new URLSearchParams();
  for (const name of KEPT) {
    const value = form.get(name);
    if (value !== null) kept.set(name, value);
  }
  return kept;
}

/** `index.html` with the answer in a `<meta>` element at the end of its head (before its first script without one). */
export function indexWithOidcResponse(index: Buffer, answer: URLSearchParams): Buffer {
  const meta = `<meta name="${OIDC_RESPONSE_META}" content="${escapeAttribute(answer.toString())}">`;
  const html = index.toString('utf8');
  const head = html.indexOf('</head>');
  const at = head === -1 ? html.indexOf('<script') : head;
  return Buffer.from(at === -1 ? html + meta : `${html.slice(0, at)}${meta}${html.slice(at)}`);
}

/** A query string is already percent-encoded, but `&` (between fields) and quotes must be escaped in an attribute. */
function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
