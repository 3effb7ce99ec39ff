/**
 * A role's statements as stored: each item the caller sent, unchanged. At run time each item
 * may be base64 of the text, a JSON array of statements, or statements separated by `;`
 * (as the established plugins read them), and every `{{placeholder}}` is replaced.
 */
export function splitStatements(items: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    for (const part of expand(item)) {
      const text = part.trim();
      if (text !== '') out.push(text);
    }
  }
  return out;
}

function expand(item: string): string[] {
  const decoded = base64Text(item);
  const text = decoded ?? item;
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed) && parsed.every((s) => typeof s === 'string')) return parsed;
    } catch {
      // Not JSON after all: a statement that starts with `[`.
    }
  }
  return text.split(';');
}

/** The text `item` encodes when it is canonical base64 of UTF-8 (SQL itself never is). */
function base64Text(item: string): string | undefined {
  const compact = item.trim();
  if (compact === '' || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return undefined;
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.toString('base64') !== compact) return undefined;
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/** Replaces each `{{key}}` (spaces inside the braces allowed) by its value; unknown keys stay as written. */
export function fillPlaceholders(statement: string, values: ReadonlyMap<string, string>): string {
  return statement.replace(/\{\{\s*([A-Za-z_]+)\s*\}\}/g, (whole, key: string) => values.get(key) ?? whole);
}

/** The statements of `items`, split and filled with `values`. */
export function renderStatements(items: readonly string[], values: ReadonlyMap<string, string>): string[] {
  return splitStatements(items).map((s) => fillPlaceholders(s, values));
}
