import { CodedError } from '../coded-error.js';

/** Where a token starts: 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** A literal value: a string (quoted or heredoc), a number or a boolean. */
export interface HclLiteral {
  kind: 'literal';
  value: string | number | boolean;
  pos: Position;
}

export interface HclList {
  kind: 'list';
  items: HclNode[];
  pos: Position;
}

/** `{ … }`: the items between the braces. */
export interface HclObject {
  kind: 'object';
  items: HclItem[];
  pos: Position;
}

export type HclNode = HclLiteral | HclList | HclObject;

/**
 * One item of an object list: `key = value`, or a block `key "label" … { … }` (keys are the
 * words before the value; a block has several). JSON objects become the same items.
 */
export interface HclItem {
  keys: Array<{ text: string; pos: Position }>;
  value: HclNode;
  /** True for `key = value`; false for a block written `key { … }`. */
  isAssignment: boolean;
}

/** A syntax error, with where it is; the message starts `At line:column:` as the established parser's do. */
export class HclSyntaxError extends CodedError<'hcl_syntax'> {
  readonly code = 'hcl_syntax';
  constructor(
    readonly pos: Position,
    detail: string,
  ) {
    super(`At ${pos.line}:${pos.column}: ${detail}`);
  }
}
