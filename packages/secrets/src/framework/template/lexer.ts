import { TemplateError } from './values.js';

/** A token inside `{{ … }}`. */
export type Token =
  | { kind: 'field'; name: string }
  | { kind: 'dot' }
  | { kind: 'ident'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'nil' }
  | { kind: 'pipe' }
  | { kind: 'open' }
  | { kind: 'close' };

/** Text and actions of a template, trim markers applied. */
export type Piece = { kind: 'text'; text: string } | { kind: 'action'; tokens: Token[] };

/** Splits a template into text and actions; `{{- ` and ` -}}` remove the whitespace beside them. */
export function splitTemplate(source: string): Piece[] {
  const pieces: Piece[] = [];
  let rest = source;
  let trimNext = false;
  while (rest !== '') {
    const open = rest.indexOf('{{');
    let text = open === -1 ? rest : rest.slice(0, open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open === -1) {
      if (text) pieces.push({ kind: 'text', text });
      break;
    }
    let inner = rest.slice(open + 2);
    if (/^-\s/.test(inner)) {
      text = text.replace(/\s+$/, '');
      inner = inner.slice(1);
    }
    if (text) pieces.push({ kind: 'text', text });
    const close = findClose(inner);
    if (close === -1) throw new TemplateError('unclosed action');
    let body = inner.slice(0, close);
    trimNext = /\s-$/.test(body);
    if (trimNext) body = body.slice(0, -1);
    rest = inner.slice(close + 2);
    const trimmed = body.trim();
    if (trimmed.startsWith('/*')) {
      if (!trimmed.endsWith('*/')) throw new TemplateError('unclosed comment');
      continue;
    }
    pieces.push({ kind: 'action', tokens: lexAction(body) });
  }
  return pieces;
}

/** Index of the `}}` closing an action, skipping quoted strings. */
function findClose(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === '`') {
      const end = c === '`' ? text.indexOf('`', i + 1) : endOfQuoted(text, i);
      if (end === -1) throw new TemplateError('unterminated quoted string');
      i = end;
    } else if (c === '}' && text[i + 1] === '}') return i;
  }
  return -1;
}

function endOfQuoted(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

const WORD = /^[A-Za-z_][A-Za-z0-9_]*/;
const NUMBER = /^[+-]?(?:0[xX][0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

function lexAction(body: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    const rest = body.slice(i);
    if (/\s/.test(c)) {
      i++;
    } else if (c === '|' || c === '(' || c === ')') {
      tokens.push({ kind: c === '|' ? 'pipe' : c === '(' ? 'open' : 'close' });
      i++;
    } else if (c === '.') {
      const word = WORD.exec(rest.slice(1));
      tokens.push(word ? { kind: 'field', name: word[0] } : { kind: 'dot' });
      i += 1 + (word?.[0].length ?? 0);
    } else if (c === '"') {
      const end = endOfQuoted(body, i);
      tokens.push({ kind: 'string', value: unquote(body.slice(i, end + 1)) });
      i = end + 1;
    } else if (c === '`') {
      const end = body.indexOf('`', i + 1);
      tokens.push({ kind: 'string', value: body.slice(i + 1, end) });
      i = end + 1;
    } else if (NUMBER.test(rest)) {
      const text = (NUMBER.exec(rest) as RegExpExecArray)[0];
      tokens.push({ kind: 'number', value: Number(text) });
      i += text.length;
    } else if (WORD.test(rest)) {
      const word = (WORD.exec(rest) as RegExpExecArray)[0];
      if (word === 'true' || word === 'false') tokens.push({ kind: 'bool', value: word === 'true' });
      else if (word === 'nil') tokens.push({ kind: 'nil' });
      else tokens.push({ kind: 'ident', name: word });
      i += word.length;
    } else {
      throw new TemplateError(`unexpected ${JSON.stringify(c)} in command`);
    }
  }
  return tokens;
}

/** A Go double-quoted string literal: the escapes JSON shares, plus `\xNN`, `\a`, `\v`, `\'`. */
function unquote(literal: string): string {
  const json = literal
    .replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1')
    .replace(/\\a/g, '\\u0007')
    .replace(/\\v/g, '\\u000b')
    .replace(/\\'/g, "'");
  try {
    return JSON.parse(json) as string;
  } catch {
    throw new TemplateError(`invalid string literal ${literal}`);
  }
}
