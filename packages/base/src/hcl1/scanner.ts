import { HclSyntaxError, type Position } from './ast.js';

export type TokenType =
  | 'ident'
  | 'string'
  | 'heredoc'
  | 'number'
  | 'float'
  | 'bool'
  | 'null'
  | '{'
  | '}'
  | '['
  | ']'
  | ','
  | '='
  | ':'
  | 'eof';

export interface Token {
  type: TokenType;
  /** The source text of the token (for a string, with its quotes). */
  text: string;
  pos: Position;
}

const SINGLE: ReadonlyMap<string, TokenType> = new Map<string, TokenType>([
  ['{', '{'],
  ['}', '}'],
  ['[', '['],
  [']', ']'],
  [',', ','],
  ['=', '='],
]);
const SIMPLE_ESCAPES = new Set(['a', 'b', 'f', 'n', 'r', 't', 'v', '\\', '"']);
const ESCAPE_DIGITS: ReadonlyMap<string, { count: number; digit: RegExp }> = new Map([
  ['x', { count: 2, digit: /[0-9a-fA-F]/ }],
  ['u', { count: 4, digit: /[0-9a-fA-F]/ }],
  ['U', { count: 8, digit: /[0-9a-fA-F]/ }],
]);

const isLetter = (ch: string) => /[A-Za-z_]/.test(ch) || (ch >= '\u0080' && /\p{L}/u.test(ch));
const isDigit = (ch: string) => ch >= '0' && ch <= '9';

/**
 * The tokens of HCL1 native syntax (or, with `json`, of JSON): newlines are whitespace, so a
 * block's brace may stand on the next line; `#`, `//` and `/* *\/` comments are skipped.
 */
export class Scanner {
  #offset = 0;
  #line = 1;
  #column = 1;

  constructor(
    private readonly src: string,
    private readonly json = false,
  ) {}

  next(): Token {
    this.#skipSpaceAndComments();
    const pos = this.#pos();
    const start = this.#offset;
    const ch = this.#peek();
    if (ch === '') return { type: 'eof', text: '', pos };
    const single = SINGLE.get(ch) ?? (this.json && ch === ':' ? ':' : undefined);
    if (single && !(this.json && ch === '=')) {
      this.#advance();
      return { type: single, text: ch, pos };
    }
    if (ch === '"') {
      this.#advance();
      this.#scanString(pos);
      return { type: 'string', text: this.src.slice(start, this.#offset), pos };
    }
    if (!this.json && ch === '<' && this.src.startsWith('<<', this.#offset)) {
      return { type: 'heredoc', text: this.#scanHeredoc(pos), pos };
    }
    if (isDigit(ch) || (ch === '-' && isDigit(this.src[this.#offset + 1] ?? ''))) {
      if (ch === '-') this.#advance();
      const type = this.#scanNumber(pos);
      return { type, text: this.src.slice(start, this.#offset), pos };
    }
    if (isLetter(ch)) {
      while (isLetter(this.#peek()) || isDigit(this.#peek()) || this.#peek() === '-' || this.#peek() === '.') {
        this.#advance();
      }
      const text = this.src.slice(start, this.#offset);
      if (text === 'true' || text === 'false') return { type: 'bool', text, pos };
      if (this.json) {
        if (text === 'null') return { type: 'null', text, pos };
        throw new HclSyntaxError(pos, `invalid token: ${text}`);
      }
      return { type: 'ident', text, pos };
    }
    throw new HclSyntaxError(pos, `illegal char ${JSON.stringify(ch)}`);
  }

  #pos(): Position {
    return { line: this.#line, column: this.#column };
  }

  #peek(): string {
    return this.src[this.#offset] ?? '';
  }

  #advance(): string {
    const ch = this.src[this.#offset] ?? '';
    this.#offset++;
    if (ch === '\n') {
      this.#line++;
      this.#column = 1;
    } else {
      this.#column++;
    }
    return ch;
  }

  #skipSpaceAndComments(): void {
    for (;;) {
      const ch = this.#peek();
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\uFEFF') {
        this.#advance();
      } else if (!this.json && (ch === '#' || this.src.startsWith('//', this.#offset))) {
        while (this.#peek() !== '' && this.#peek() !== '\n') this.#advance();
      } else if (!this.json && this.src.startsWith('/*', this.#offset)) {
        const pos = this.#pos();
        const end = this.src.indexOf('*/', this.#offset + 2);
        if (end === -1) throw new HclSyntaxError(pos, 'comment not terminated');
        while (this.#offset < end + 2) this.#advance();
      } else {
        return;
      }
    }
  }

  /** After the opening quote; `${ … }` may hold quotes, and newlines only inside it. */
  #scanString(pos: Position): void {
    let braces = 0;
    for (;;) {
      const ch = this.#advance();
      if (ch === '' || (ch === '\n' && braces === 0)) throw new HclSyntaxError(pos, 'literal not terminated');
      if (ch === '"' && braces === 0) return;
      if (!this.json && braces === 0 && ch === '$' && this.#peek() === '{') {
        this.#advance();
        braces++;
      } else if (braces > 0 && ch === '{') {
        braces++;
      } else if (braces > 0 && ch === '}') {
        braces--;
      }
      if (ch === '\\') this.#scanEscape();
    }
  }

  #scanEscape(): void {
    const pos = this.#pos();
    const ch = this.#advance();
    if (SIMPLE_ESCAPES.has(ch) || (this.json && ch === '/')) return;
    const counted = ESCAPE_DIGITS.get(ch) ?? (ch >= '0' && ch <= '7' ? { count: 2, digit: /[0-7]/ } : undefined);
    if (!counted) throw new HclSyntaxError(pos, 'illegal char escape');
    for (let i = 0; i < counted.count; i++) {
      if (!counted.digit.test(this.#advance())) throw new HclSyntaxError(pos, 'illegal char escape');
    }
  }

  /** `<<EOT` or `<<-EOT`, a newline, the text, and a line holding only the anchor (leading space allowed). */
  #scanHeredoc(pos: Position): string {
    const start = this.#offset;
    this.#advance();
    this.#advance();
    if (this.#peek() === '-') this.#advance();
    const anchorStart = this.#offset;
    while (isLetter(this.#peek()) || isDigit(this.#peek())) this.#advance();
    const anchor = this.src.slice(anchorStart, this.#offset);
    if (this.#peek() === '\r') this.#advance();
    if (this.#peek() === '') throw new HclSyntaxError(pos, 'heredoc not terminated');
    if (this.#peek() !== '\n') throw new HclSyntaxError(pos, 'invalid characters in heredoc anchor');
    if (anchor === '') throw new HclSyntaxError(pos, 'zero-length heredoc anchor');
    this.#advance();
    for (;;) {
      const lineStart = this.#offset;
      let lineEnd = this.src.indexOf('\n', lineStart);
      if (lineEnd === -1) lineEnd = this.src.length;
      const line = this.src.slice(lineStart, lineEnd).replace(/\r+$/, '');
      if (line.trimStart() === anchor) {
        while (this.#offset < lineEnd) this.#advance();
        return this.src.slice(start, this.#offset);
      }
      if (lineEnd === this.src.length) throw new HclSyntaxError(pos, 'heredoc not terminated');
      while (this.#offset <= lineEnd) this.#advance();
    }
  }

  #scanNumber(pos: Position): 'number' | 'float' {
    let type: 'number' | 'float' = 'number';
    if (this.#peek() === '0' && /[xX]/.test(this.src[this.#offset + 1] ?? '')) {
      this.#advance();
      this.#advance();
      if (!/[0-9a-fA-F]/.test(this.#peek())) throw new HclSyntaxError(pos, 'illegal hexadecimal number');
      while (/[0-9a-fA-F]/.test(this.#peek())) this.#advance();
      return type;
    }
    while (isDigit(this.#peek())) this.#advance();
    if (this.#peek() === '.' && isDigit(this.src[this.#offset + 1] ?? '')) {
      type = 'float';
      this.#advance();
      while (isDigit(this.#peek())) this.#advance();
    }
    if (/[eE]/.test(this.#peek())) {
      type = 'float';
      this.#advance();
      if (this.#peek() === '+' || this.#peek() === '-') this.#advance();
      if (!isDigit(this.#peek())) throw new HclSyntaxError(pos, 'illegal floating-point exponent');
      while (isDigit(this.#peek())) this.#advance();
    }
    return type;
  }
}
