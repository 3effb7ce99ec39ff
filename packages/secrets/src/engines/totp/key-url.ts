import { InvalidRequestError } from '../../logical/errors.js';
import { escapeGo, parseGoQuery, parseGoUrl, UrlSyntaxError } from './go-url.js';

/** What an `otpauth://` URL sets; an absent field keeps the request's (or default) value. */
export interface KeyUrlSettings {
  /** Always set: the label part after the first `:`, or the whole label (possibly ''). */
  account_name: string;
  /** The `issuer` parameter, else the label part before the first `:`; absent when neither. */
  issuer?: string;
  /** The `secret` parameter, '' when absent. */
  key: string;
  period?: number;
  digits?: number;
  algorithm?: string;
}

/**
 * Reads a key URL as established servers do: scheme and host (`totp`/`hotp`) are not
 * checked, `period` and `digits` must be plain integers, `algorithm` is taken as is
 * (its validity is checked later with the request's own fields).
 */
export function parseKeyUrl(url: string): KeyUrlSettings {
  let parsed: ReturnType<typeof parseGoUrl>;
  try {
    parsed = parseGoUrl(url);
  } catch (err) {
    if (err instanceof UrlSyntaxError) throw new InvalidRequestError('an error occurred while parsing url string');
    throw err;
  }
  const query = parseGoQuery(parsed.rawQuery);
  const label = parsed.path.startsWith('/') ? parsed.path.slice(1) : parsed.path;
  const colon = label.indexOf(':');
  const settings: KeyUrlSettings = {
    account_name: colon === -1 ? label : label.slice(colon + 1),
    key: query.get('secret') ?? '',
  };
  const issuer = query.get('issuer') || (colon === -1 ? undefined : label.slice(0, colon));
  if (issuer !== undefined) settings.issuer = issuer;
  const period = query.get('period');
  if (period) settings.period = atoi(period, 'period');
  const digits = query.get('digits');
  if (digits) settings.digits = atoi(digits, 'digits');
  const algorithm = query.get('algorithm');
  if (algorithm) settings.algorithm = algorithm;
  return settings;
}

/** Go's `strconv.Atoi`: optional sign, decimal digits only, within 64 bits. */
function atoi(text: string, name: 'period' | 'digits'): number {
  const value = /^[+-]?\d+$/.test(text) ? BigInt(text) : undefined;
  if (value === undefined || BigInt.asIntN(64, value) !== value) {
    throw new InvalidRequestError(`an error occurred while parsing ${name} value in url`);
  }
  return Number(value);
}

/** The fields of a generated key's URL. */
export interface KeyUrlParts {
  issuer: string;
  account_name: string;
  algorithm: string;
  digits: number;
  period: number;
  /** Base32 without padding. */
  secret: string;
}

/**
 * The URL of a generated key, byte for byte as established servers write it:
 * `otpauth://totp/<issuer>:<account>?algorithm=…&digits=…&issuer=…&period=…&secret=…`
 * (parameters in alphabetical order, values path-segment escaped: a space is `%20`).
 */
export function buildKeyUrl(p: KeyUrlParts): string {
  const query: [string, string][] = [
    ['algorithm', p.algorithm],
    ['digits', String(p.digits)],
    ['issuer', p.issuer],
    ['period', String(p.period)],
    ['secret', p.secret],
  ];
  const label = escapeGo(`/${p.issuer}:${p.account_name}`, 'path');
  return `otpauth://totp${label}?${query.map(([k, v]) => `${k}=${escapeGo(v, 'segment')}`).join('&')}`;
}
