import { type HclItem, type HclNode, HclSyntaxError } from './ast.js';
import { describe } from './parser.js';
import { Scanner, type Token } from './scanner.js';
import { literalValue } from './values.js';

/**
 * Parses a JSON document into the same object list as native syntax, then flattens it as the
 * established parser does: `"path": {"a/*": {…}}` becomes the block `path "a/*" {…}`, and a
 * list of objects becomes repeated blocks, so JSON and HCL files mean the same.
 */
export function parseJson(src: string): HclItem[] {
  const scanner = new Scanner(src, true);
  let pending: Token | undefined;
  const next = () => {
    const tok = pending ?? scanner.next();
    pending = undefined;
    return tok;
  };
  const peek = () => {
    pending ??= scanner.next();
    return pending;
  };
  const expect = (type: Token['type'], what: string) => {
    const tok = next();
    if (tok.type !== type) throw new HclSyntaxError(tok.pos, `expected ${what}, got: ${describe(tok)}`);
    return tok;
  };
  const value = (): HclNode => {
    const tok = next();
    if (tok.type === '{') return { kind: 'object', items: members(), pos: tok.pos };
    if (tok.type === '[') {
      const items: HclNode[] = [];
      if (peek().type === ']') next();
      else {
        for (;;) {
          items.push(value());
          const sep = next();
          if (sep.type === ']') break;
          if (sep.type !== ',') throw new HclSyntaxError(sep.pos, `expected "," or "]", got: ${describe(sep)}`);
        }
      }
      return { kind: 'list', items, pos: tok.pos };
    }
    if (['string', 'number', 'float', 'bool', 'null'].includes(tok.type)) {
      return { kind: 'literal', value: literalValue(tok), pos: tok.pos };
    }
    throw new HclSyntaxError(tok.pos, `Unknown token: ${describe(tok)}`);
  };
  // After the `{`: members up to and including the `}`.
  const members = (): HclItem[] => {
    const items: HclItem[] = [];
    if (peek().type === '}') {
      next();
      return items;
    }
    for (;;) {
      const key = expect('string', 'a string key');
      expect(':', '":"');
      items.push({ keys: [{ text: literalValue(key) as string, pos: key.pos }], value: value(), isAssignment: true });
      const sep = next();
      if (sep.type === '}') return items;
      if (sep.type !== ',') throw new HclSyntaxError(sep.pos, `expected "," or "}", got: ${describe(sep)}`);
    }
  };
  expect('{', 'a JSON object');
  const root = members();
  const end = next();
  if (end.type !== 'eof') throw new HclSyntaxError(end.pos, `unexpected ${describe(end)} after the object`);
  return flatten(root);
}

/** The established JSON flattening, applied at every level. */
function flatten(items: HclItem[]): HclItem[] {
  const out: HclItem[] = [];
  const expand = (item: HclItem): void => {
    const v = item.value;
    if (v.kind === 'object' && v.items.length > 0 && v.items.every((i) => i.value.kind === 'object')) {
      for (const sub of v.items) expand({ ...sub, keys: [...item.keys, ...sub.keys], isAssignment: false });
      return;
    }
    if (v.kind === 'list' && v.items.length > 0 && v.items.every((i) => i.kind === 'object')) {
      for (const elem of v.items) expand({ ...item, value: elem, isAssignment: false });
      return;
    }
    out.push({ ...item, value: flattenNode(v) });
  };
  for (const item of items) expand(item);
  return out;
}

function flattenNode(node: HclNode): HclNode {
  if (node.kind === 'object') return { ...node, items: flatten(node.items) };
  if (node.kind === 'list') return { ...node, items: node.items.map(flattenNode) };
  return node;
}
