import { CodedError } from '@ward/base';

/**
 * The parts of Go's `net/url` that decide what a key URL means and how a generated one
 * is written, so imported URLs fail and succeed exactly where established servers'
 * do, and generated URLs are the same text byte for byte.
 */

/** A URL Go's `url.Parse` would refuse. */
export class UrlSyntaxError extends CodedError<'url_syntax'> {
  readonly code = 'url_syntax';
}

/** What `url.Parse` yields that a key URL uses: the decoded path and the raw query. */
export interface ParsedUrl {
  /** Percent-decoded path, with its leading `/` if any (empty for an opaque URL). */
  path: string;
  rawQuery: string;
}

/** Go's `url.Parse`, reduced to the path and query and the errors it can raise on the way. */
export function parseGoUrl(raw: string): ParsedUrl {
  const hash = raw.indexOf('#');
  const parsed = parseWithoutFragment(hash === -1 ? raw : raw.slice(0, hash));
  if (hash !== -1) percentDecode(raw.slice(hash + 1), false);
  return parsed;
}

function parseWithoutFragment(text: string): ParsedUrl {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Go refuses exactly these bytes
  if (/[\x00-\x1f\x7f]/.test(text)) throw new UrlSyntaxError('net/url: invalid control character in URL');
  const { scheme, rest: afterScheme } = splitScheme(text);
  const q = afterScheme.indexOf('?');
  let rest = q === -1 ? afterScheme : afterScheme.slice(0, q);
  const rawQuery = q === -1 ? '' : afterScheme.slice(q + 1);
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { path: '', rawQuery }; // opaque: `otpauth:label?…`
    if ((rest.split('/')[0] ?? '').includes(':')) {
      throw new UrlSyntaxError('first path segment in URL cannot contain colon');
    }
  }
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    checkAuthority(slash === -1 ? rest.slice(2) : rest.slice(2, slash));
    rest = slash === -1 ? '' : rest.slice(slash);
  }
  return { path: percentDecode(rest, false), rawQuery };
}

function splitScheme(text: string): { scheme: string; rest: string } {
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new UrlSyntaxError('missing protocol scheme');
      return { scheme: text.slice(0, i).toLowerCase(), rest: text.slice(i + 1) };
    }
    break;
  }
  return { scheme: '', rest: text };
}

/** Go checks the port is numeric and that escapes in the host are well formed. */
function checkAuthority(authority: string): void {
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const bracket = host.lastIndexOf(']');
  const colon = host.lastIndexOf(':');
  if (colon > bracket && !/^\d*$/.test(host.slice(colon + 1))) {
    throw new UrlSyntaxError(`invalid port "${host.slice(colon)}" after host`);
  }
  percentDecode(host, false);
}

/** Percent-decoding; `plusIsSpace` for query components. Bad escapes are errors, as in Go. */
function percentDecode(text: string, plusIsSpace: boolean): string {
  const bytes: number[] = [];
  const raw = Buffer.from(text, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i] as number;
    if (b === 0x25) {
      const hex = raw.subarray(i + 1, i + 3).toString('latin1');
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new UrlSyntaxError(`invalid URL escape "%${hex}"`);
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(plusIsSpace && b === 0x2b ? 0x20 : b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Go's `url.Values` from a raw query: pairs split on `&`; a pair holding `;` or a bad
 * escape is dropped (as `URL.Query()` ignores its errors); the first value of a name wins in `get`.
 */
export function parseGoQuery(rawQuery: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    try {
      const name = percentDecode(eq === -1 ? pair : pair.slice(0, eq), true);
      const value = eq === -1 ? '' : percentDecode(pair.slice(eq + 1), true);
      if (!values.has(name)) values.set(name, value);
    } catch {
      // dropped, as Go drops it
    }
  }
  return values;
}

const UNRESERVED = /[A-Za-z0-9\-_.~]/;

/**
 * Go's `escape` for a whole path (`URL.EscapedPath`) or one path segment (`url.PathEscape`):
 * both keep `$ & + : = @`; a segment also escapes `/ ; ,`; `?` and everything else
 * outside the unreserved set become `%XX` of each UTF-8 byte.
 */
export function escapeGo(text: string, mode: 'path' | 'segment'): string {
  const kept = mode === 'path' ? '$&+:=@/;,' : '$&+:=@';
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out +=
      byte < 0x80 && (UNRESERVED.test(c) || kept.includes(c))
        ? c
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
