import { HclSyntaxError, type Position } from './ast.js';
import type { Token } from './scanner.js';

const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['a', '\x07'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
  ['v', '\v'],
  ['\\', '\\'],
  ['"', '"'],
  ['/', '/'],
]);

/** The value a literal token stands for, as the established parser reads it. */
export function literalValue(tok: Token): string | number | boolean {
  switch (tok.type) {
    case 'string':
      return unquote(tok.text, tok.pos);
    case 'heredoc':
      return heredocText(tok.text);
    case 'bool':
      return tok.text === 'true';
    case 'null':
      return '';
    case 'number':
      return integerValue(tok.text, tok.pos);
    case 'float':
      return Number(tok.text);
    default:
      throw new HclSyntaxError(tok.pos, `Unknown token: ${tok.type} ${tok.text}`);
  }
}

/** Decimal, `0x` hexadecimal, or octal with a leading 0 (as Go's ParseInt with base 0). */
function integerValue(text: string, pos: Position): number {
  const negative = text.startsWith('-');
  const digits = negative ? text.slice(1) : text;
  let value: number;
  if (/^0[xX]/.test(digits)) value = Number.parseInt(digits.slice(2), 16);
  else if (digits.length > 1 && digits.startsWith('0')) {
    if (!/^[0-7]+$/.test(digits)) throw new HclSyntaxError(pos, 'illegal octal number');
    value = Number.parseInt(digits, 8);
  } else value = Number(digits);
  return negative ? -value : value;
}

/**
 * The text of a quoted string: escapes decoded, except inside `${ … }`, which is kept as written
 * (the established parser leaves interpolations for a later stage).
 */
function unquote(quoted: string, pos: Position): string {
  const s = quoted.slice(1, -1);
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '$' && s[i + 1] === '{') {
      let braces = 1;
      let j = i + 2;
      while (j < s.length && braces > 0) {
        if (s[j] === '{') braces++;
        else if (s[j] === '}') braces--;
        j++;
      }
      out += s.slice(i, j);
      i = j - 1;
      continue;
    }
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = s[i + 1] ?? '';
    const simple = ESCAPES.get(e);
    if (simple !== undefined) {
      out += simple;
      i++;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      out += String.fromCodePoint(Number.parseInt(s.slice(i + 2, i + 2 + n), 16));
      i += 1 + n;
    } else if (e >= '0' && e <= '7') {
      out += String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 4), 8));
      i += 3;
    } else {
      throw new HclSyntaxError(pos, 'illegal char escape');
    }
  }
  return out;
}

/**
 * A heredoc's text: the lines between the anchors, each ending in a newline. `<<-` removes the
 * closing anchor's indentation from every line when every line has it (otherwise the text is
 * kept as written), as the established parser does.
 */
function heredocText(raw: string): string {
  const firstNewline = raw.indexOf('\n');
  const isIndented = raw[2] === '-';
  const body = raw.slice(firstNewline + 1);
  const lines = body.split('\n');
  const anchorLine = lines.pop() ?? '';
  const text = lines.map((l) => `${l.replace(/\r$/, '')}\n`).join('');
  if (!isIndented) return text;
  const indent = /^[ \t]*/.exec(anchorLine)?.[0] ?? '';
  if (!lines.every((l) => l.startsWith(indent))) return text;
  return lines.map((l) => `${l.slice(indent.length).replace(/\r$/, '')}\n`).join('');
}
