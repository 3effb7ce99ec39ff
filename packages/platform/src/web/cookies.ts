/** The request's cookies by name; a malformed pair is skipped rather than failing the request. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      out.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // not ours: our values are base62
    }
  }
  return out;
}

/**
 * A Set-Cookie value scoped to the web pages. HttpOnly keeps scripts from reading it; SameSite=Lax
 * keeps other sites' forms from sending it along with a POST; Secure is set when served over TLS.
 */
export function setCookie(name: string, value: string, opts: { maxAgeSeconds: number; secure: boolean }): string {
  return [
    `${name}=${value}`,
    'Path=/app',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${opts.maxAgeSeconds}`,
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
}
