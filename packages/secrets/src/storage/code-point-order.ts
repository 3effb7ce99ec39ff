/**
 * Orders strings by Unicode code point, which is the byte order of their UTF-8 form:
 * the order SQLite (and Go, for the established servers) sort keys in. Plain `sort()`
 * compares UTF-16 units and would put an emoji before U+FF5E.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (astral code points) above U+E000–U+FFFF, keeping order within each group. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
