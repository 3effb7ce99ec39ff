import { InvalidRequestError } from '../../logical/errors.js';

/** RFC 4515 §3: a value inside a filter, with `*`, `(`, `)`, `\` and NUL escaped. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** RFC 4514 §2.4: a value inside a DN, with its special characters escaped. */
export function escapeDnValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
    .replace(/^([ #])/, '\\$1')
    .replace(/ $/, '\\ ');
}

const PLACEHOLDER = /\{\{\s*\.(\w+)\s*\}\}/g;

/**
 * A filter template (`userfilter`, `groupfilter`) with `{{.Name}}` placeholders replaced by the
 * escaped values: a username cannot add filter syntax. Unknown placeholders are refused.
 */
export function renderFilter(template: string, values: Record<string, string>): string {
  return template.replace(PLACEHOLDER, (_m, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) throw new InvalidRequestError(`unknown placeholder {{.${name}}} in filter template`);
    return escapeFilterValue(value);
  });
}

/** Checks a template at config time: known placeholders only, and balanced parentheses. */
export function checkTemplate(field: string, template: string, names: string[]): void {
  for (const m of template.matchAll(PLACEHOLDER))
    if (!names.includes(m[1] ?? ''))
      throw new InvalidRequestError(`invalid ${field}: unknown placeholder {{.${m[1]}}}`);
  let depth = 0;
  for (const c of template.replace(/\\./g, '')) {
    depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth < 0) break;
  }
  if (depth !== 0 || !template.startsWith('(')) throw new InvalidRequestError(`invalid ${field}: not an LDAP filter`);
}

/** A group's name from a DN-valued attribute (`memberOf`): the first RDN's value when it is a CN. */
export function groupName(value: string): string {
  const match = /^\s*cn\s*=\s*((?:\\.|[^,+])*)/i.exec(value);
  if (!match || !value.includes(',')) return value;
  return (match[1] ?? '').replace(/\\(.)/g, '$1').trim();
}
