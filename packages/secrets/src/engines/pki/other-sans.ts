import { InvalidRequestError } from '../../logical/errors.js';
import type { OtherSan } from './x509.js';

export type { OtherSan };

const OID = /^[0-2](?:\.(?:0|[1-9][0-9]*))+$/;
const ENTRY = /^([^;]+);(UTF-?8):(.*)$/is;

function parseEntry(text: string, what: string): OtherSan {
  const match = ENTRY.exec(text.trim());
  if (!match || !OID.test(match[1] ?? ''))
    throw new InvalidRequestError(
      `could not parse ${what} "${text}": expected <oid>;UTF8:<value> (the only type supported is UTF8 or UTF-8)`,
    );
  return { oid: match[1] ?? '', value: match[3] ?? '' };
}

/** The other SANs a request asks for, parsed; 400 for any entry not of the established form. */
export function parseOtherSans(entries: string[]): OtherSan[] {
  return entries.filter((e) => e.trim() !== '').map((e) => parseEntry(e, 'other_sans'));
}

function globMatches(glob: string, value: string): boolean {
  const pattern = glob
    .split('*')
    .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${pattern}$`, 's').test(value);
}

/**
 * Refuses an other SAN the role's `allowed_other_sans` does not allow, as established: a lone
 * `*` allows any; otherwise an entry of the same OID whose value (a glob: `*` for any) matches.
 */
export function checkOtherSans(allowed: string[], sans: OtherSan[]): void {
  if (sans.length === 0) return;
  if (allowed.includes('*')) return;
  const rules = allowed.filter((e) => e.trim() !== '').map((e) => parseEntry(e, 'allowed_other_sans'));
  for (const san of sans)
    if (!rules.some((rule) => rule.oid === san.oid && globMatches(rule.value, san.value)))
      throw new InvalidRequestError(`other SAN ${san.oid};UTF8:${san.value} not allowed by this role`);
}

/** The role's `allowed_other_sans`, checked when it is written. */
export function checkAllowedOtherSans(allowed: string[]): void {
  for (const entry of allowed) if (entry.trim() !== '' && entry !== '*') parseEntry(entry, 'allowed_other_sans');
}
