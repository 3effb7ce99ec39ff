import type { HclItem, HclNode } from './ast.js';
import { parseJson } from './json.js';
import { parseNative } from './parser.js';

/** A block body or object: keys to values (null prototype, so `constructor` is no key). */
export type HclBody = Record<string, unknown>;

/**
 * A parsed file in the shape configuration code reads: a block `a "l1" "l2" { … }` is
 * `{a: {l1: {l2: [body, …]}}}`, an unlabelled block `a { … }` is `{a: [body, …]}` (each
 * repetition adds a body), and `a = value` is the value. With the line of every key.
 */
export interface HclDocument {
  body: HclBody;
  /** The line where `key` is first written in `body` (any body or object of this document). */
  lineOf(body: object, key: string): number | undefined;
  /** The line where the block or object `body` starts (its first key). */
  lineOfBody(body: object): number | undefined;
}

/**
 * Parses HCL1 (or JSON, when the text starts with `{`, as the established parser decides) into a
 * document. Throws `HclSyntaxError` with the line and column of the first syntax error.
 */
export function parseHcl(text: string): HclDocument {
  const items = text.trimStart().startsWith('{') ? parseJson(text) : parseNative(text);
  const keyLines = new WeakMap<object, Map<string, number>>();
  const bodyLines = new WeakMap<object, number>();
  const body = toBody(items, keyLines, bodyLines);
  return {
    body,
    lineOf: (b, key) => keyLines.get(b)?.get(key),
    lineOfBody: (b) => bodyLines.get(b),
  };
}

function toBody(
  items: readonly HclItem[],
  keyLines: WeakMap<object, Map<string, number>>,
  bodyLines: WeakMap<object, number>,
): HclBody {
  const body: HclBody = Object.create(null);
  const lines = new Map<string, number>();
  keyLines.set(body, lines);
  const convert = (node: HclNode): unknown => {
    if (node.kind === 'literal') return node.value;
    if (node.kind === 'list') return node.items.map(convert);
    const obj = toBody(node.items, keyLines, bodyLines);
    bodyLines.set(obj, node.pos.line);
    return obj;
  };
  for (const item of items) {
    const [first, ...labels] = item.keys;
    if (!first) continue;
    if (!lines.has(first.text)) lines.set(first.text, first.pos.line);
    const value = convert(item.value);
    if (item.value.kind === 'object') bodyLines.set(value as object, first.pos.line);
    if (labels.length === 0 && item.isAssignment) {
      body[first.text] = merged(body[first.text], value);
      continue;
    }
    // A block: labels nest, and the innermost holds the list of bodies.
    let holder = body;
    let key = first.text;
    for (const label of labels) {
      const next = holder[key];
      const inner: HclBody = isBody(next) ? next : Object.create(null);
      if (!isBody(next)) {
        holder[key] = inner;
        keyLines.set(inner, new Map());
      }
      const innerLines = keyLines.get(inner);
      if (innerLines && !innerLines.has(label.text)) innerLines.set(label.text, label.pos.line);
      holder = inner;
      key = label.text;
    }
    const list = holder[key];
    if (Array.isArray(list)) list.push(value);
    else holder[key] = list === undefined ? [value] : [list, value];
  }
  return body;
}

/**
 * A key assigned twice, as the established decoder reads it into typed fields: lists are
 * joined, objects merged key by key (their lists joined too), anything else the last one.
 */
function merged(previous: unknown, value: unknown): unknown {
  if (Array.isArray(previous) && Array.isArray(value)) return [...previous, ...value];
  if (isBody(previous) && isBody(value)) {
    for (const [k, v] of Object.entries(value)) previous[k] = merged(previous[k], v);
    return previous;
  }
  return value;
}

function isBody(value: unknown): value is HclBody {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
