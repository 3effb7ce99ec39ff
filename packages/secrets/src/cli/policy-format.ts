/**
 * Canonical layout of an HCL policy, as `ward policy fmt` writes it: two-space indentation by
 * nesting depth, `key = value` with the `=` of consecutive attributes aligned, no trailing
 * spaces, at most one blank line in a row. Comments and the order of everything are kept.
 */
export function formatPolicy(text: string): string {
  const lines: string[] = [];
  let depth = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') {
      if (lines.length > 0 && lines.at(-1) !== '') lines.push('');
      continue;
    }
    const opensAt = depth;
    const { opens, closes, leadingCloses } = brackets(line);
    const indent = Math.max(0, opensAt - leadingCloses);
    lines.push(`${'  '.repeat(indent)}${normalizeAttribute(line)}`);
    depth = Math.max(0, depth + opens - closes);
  }
  while (lines.at(-1) === '') lines.pop();
  return `${alignEquals(lines).join('\n')}\n`;
}

/** Brackets outside strings and comments: how many open, close, and close before any other text. */
function brackets(line: string): { opens: number; closes: number; leadingCloses: number } {
  let opens = 0;
  let closes = 0;
  let leadingCloses = 0;
  let isLeading = true;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '#' || (c === '/' && line[i + 1] === '/')) break;
    if (c === '"') inString = true;
    if (c === '{' || c === '[') opens++;
    if (c === '}' || c === ']') {
      closes++;
      if (isLeading) leadingCloses++;
    } else if (c !== ' ' && c !== '\t') isLeading = false;
  }
  return { opens, closes, leadingCloses };
}

/** `key="v"` or `key   =  "v"` → `key = "v"` (only for a bare identifier before the first `=`). */
function normalizeAttribute(line: string): string {
  const m = /^([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(line);
  return m ? `${m[1]} = ${m[2]}` : line;
}

/** Aligns the `=` of consecutive attribute lines at the same indentation, as HCL's formatter does. */
function alignEquals(lines: string[]): string[] {
  const out = [...lines];
  let start = 0;
  while (start < out.length) {
    const head = /^(\s*)([A-Za-z_][\w-]*) = /.exec(out[start] as string);
    if (!head) {
      start++;
      continue;
    }
    let end = start + 1;
    while (end < out.length) {
      const next = /^(\s*)([A-Za-z_][\w-]*) = /.exec(out[end] as string);
      if (!next || next[1] !== head[1]) break;
      end++;
    }
    const width = Math.max(...out.slice(start, end).map((l) => (/^\s*([A-Za-z_][\w-]*)/.exec(l)?.[1] ?? '').length));
    for (let i = start; i < end; i++) {
      out[i] = (out[i] as string).replace(
        /^(\s*)([A-Za-z_][\w-]*) = /,
        (_m, sp: string, key: string) => `${sp}${key.padEnd(width)} = `,
      );
    }
    start = end;
  }
  return out;
}
