import { type HclItem, type HclList, type HclNode, type HclObject, HclSyntaxError } from './ast.js';
import { Scanner, type Token } from './scanner.js';
import { literalValue } from './values.js';

const LITERALS = new Set(['string', 'heredoc', 'number', 'float', 'bool']);

/**
 * Parses HCL1 native syntax into an object list, with the established parser's rules: items may
 * be separated by newlines or commas, a block is `key "label"… {` with its brace anywhere after
 * the keys (the next line too), and a key repeated makes a second item (repeated blocks).
 */
export function parseNative(src: string): HclItem[] {
  return new NativeParser(new Scanner(src)).objectList(false);
}

class NativeParser {
  #pending: Token | undefined;

  constructor(private readonly scanner: Scanner) {}

  #next(): Token {
    const tok = this.#pending ?? this.scanner.next();
    this.#pending = undefined;
    return tok;
  }

  #peek(): Token {
    this.#pending ??= this.scanner.next();
    return this.#pending;
  }

  objectList(isInObject: boolean): HclItem[] {
    const items: HclItem[] = [];
    for (;;) {
      const tok = this.#peek();
      if (tok.type === 'eof') {
        if (isInObject) throw new HclSyntaxError(tok.pos, 'object expected closing RBRACE got: EOF');
        return items;
      }
      if (isInObject && tok.type === '}') return items;
      items.push(this.#objectItem());
      if (this.#peek().type === ',') this.#next();
    }
  }

  #objectItem(): HclItem {
    const keys: HclItem['keys'] = [];
    for (;;) {
      const tok = this.#next();
      if (tok.type === 'ident' || tok.type === 'string') {
        keys.push({ text: tok.type === 'string' ? (literalValue(tok) as string) : tok.text, pos: tok.pos });
        continue;
      }
      if (tok.type === '=') {
        if (keys.length === 0) throw new HclSyntaxError(tok.pos, 'no object keys found!');
        if (keys.length > 1) throw new HclSyntaxError(tok.pos, 'nested object expected: LBRACE got: ASSIGN');
        return { keys, value: this.#value(), isAssignment: true };
      }
      if (tok.type === '{') {
        if (keys.length === 0) throw new HclSyntaxError(tok.pos, 'expected: IDENT | STRING got: LBRACE');
        return { keys, value: this.#objectType(tok), isAssignment: false };
      }
      if (keys.length > 0) {
        const names = keys.map((k) => k.text).join(' ');
        throw new HclSyntaxError(tok.pos, `key '${names}' expected start of object ('{') or assignment ('=')`);
      }
      throw new HclSyntaxError(tok.pos, `expected: IDENT | STRING | ASSIGN | LBRACE got: ${describe(tok)}`);
    }
  }

  #value(): HclNode {
    const tok = this.#next();
    if (LITERALS.has(tok.type)) return { kind: 'literal', value: literalValue(tok), pos: tok.pos };
    if (tok.type === '{') return this.#objectType(tok);
    if (tok.type === '[') return this.#listType(tok);
    throw new HclSyntaxError(tok.pos, `Unknown token: ${describe(tok)}`);
  }

  /** After `{`. */
  #objectType(open: Token): HclObject {
    const items = this.objectList(true);
    this.#next();
    return { kind: 'object', items, pos: open.pos };
  }

  /** After `[`: values separated by commas, a trailing comma allowed. */
  #listType(open: Token): HclList {
    const items: HclNode[] = [];
    let needComma = false;
    for (;;) {
      const tok = this.#next();
      if (tok.type === ']') return { kind: 'list', items, pos: open.pos };
      if (tok.type === ',') {
        needComma = false;
        continue;
      }
      if (needComma) {
        throw new HclSyntaxError(tok.pos, `error parsing list, expected comma or list end, got: ${describe(tok)}`);
      }
      if (LITERALS.has(tok.type)) items.push({ kind: 'literal', value: literalValue(tok), pos: tok.pos });
      else if (tok.type === '{') items.push(this.#objectType(tok));
      else if (tok.type === '[') items.push(this.#listType(tok));
      else throw new HclSyntaxError(tok.pos, `unexpected token while parsing list: ${describe(tok)}`);
      needComma = true;
    }
  }
}

export function describe(tok: Token): string {
  return tok.type === 'eof' ? 'EOF' : JSON.stringify(tok.text);
}
