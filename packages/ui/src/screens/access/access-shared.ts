import type { Crumb } from '../../components/page.js';

/** The crumbs of every Access screen below the index. */
export const ACCESS_CRUMBS: Crumb[] = [{ label: 'Access', to: '/access' }];

/** A comma-separated field (`default, dev`) as the list the API takes; blanks dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `key=value` lines as an object (metadata); a line without `=` is refused. */
export function parsePairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    if (at < 1) throw new Error(`"${line.trim()}" is not key=value`);
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

export function pairsText(pairs: Record<string, string> | null | undefined): string {
  return Object.entries(pairs ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

/** A mount path without its slashes (`userpass/` → `userpass`). */
export function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}
