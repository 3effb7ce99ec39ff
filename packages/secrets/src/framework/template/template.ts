import { type Piece, splitTemplate, type Token } from './lexer.js';
import { bytesOf, isTrue, TemplateError, type Value } from './values.js';

/** A template function: gets its evaluated arguments (a piped value last). */
export type TemplateFunction = (args: Value[]) => Value;

type Operand = Token | { kind: 'sub'; pipe: Pipeline };
type Command = Operand[];
type Pipeline = Command[];
type Node =
  | { kind: 'text'; text: string }
  | { kind: 'output'; pipe: Pipeline }
  | { kind: 'if'; branches: Array<{ cond: Pipeline; body: Node[] }>; otherwise: Node[] };

/** Fields of the data a template renders with (a fixed set: an unknown field is an error). */
export type TemplateData = ReadonlyMap<string, Value>;

/**
 * A parsed template in the text-template subset the spec names: fields (`.Name`), literals,
 * function calls, pipelines (the piped value is the last argument), parentheses,
 * `if`/`else if`/`else`/`end`, comments and trim markers.
 */
export class Template {
  private constructor(
    private readonly nodes: Node[],
    private readonly funcs: ReadonlyMap<string, TemplateFunction>,
  ) {}

  /** Parses `source`; a function not in `funcs` is a parse error, as in Go. */
  static parse(source: string, funcs: ReadonlyMap<string, TemplateFunction>): Template {
    const pieces = splitTemplate(source);
    const parser = new Parser(pieces, funcs);
    const nodes = parser.nodes(false);
    return new Template(nodes, funcs);
  }

  /** The rendered bytes. */
  render(data: TemplateData): Buffer {
    const out: Buffer[] = [];
    this.#run(this.nodes, data, out);
    return Buffer.concat(out);
  }

  #run(nodes: Node[], data: TemplateData, out: Buffer[]): void {
    for (const node of nodes) {
      if (node.kind === 'text') out.push(Buffer.from(node.text, 'utf8'));
      else if (node.kind === 'output') out.push(bytesOf(this.#pipeline(node.pipe, data)));
      else {
        const branch = node.branches.find((b) => isTrue(this.#pipeline(b.cond, data)));
        this.#run(branch ? branch.body : node.otherwise, data, out);
      }
    }
  }

  #pipeline(pipe: Pipeline, data: TemplateData): Value {
    let piped: Value | undefined;
    for (const command of pipe) piped = this.#command(command, data, piped);
    return piped ?? null;
  }

  #command(command: Command, data: TemplateData, piped: Value | undefined): Value {
    const [head, ...args] = command;
    if (head?.kind === 'ident') {
      const values = args.map((a) => this.#operand(a, data));
      return this.#call(head.name, piped === undefined ? values : [...values, piped]);
    }
    if (!head || args.length > 0 || piped !== undefined) throw new TemplateError("can't give argument to non-function");
    return this.#operand(head, data);
  }

  #call(name: string, args: Value[]): Value {
    const fn = this.funcs.get(name) as TemplateFunction;
    try {
      return fn(args);
    } catch (err) {
      if (err instanceof TemplateError && err.message.startsWith('wrong ')) throw err;
      throw new TemplateError(`error calling ${name}: ${(err as Error).message}`);
    }
  }

  #operand(op: Operand, data: TemplateData): Value {
    switch (op.kind) {
      case 'field': {
        if (!data.has(op.name)) throw new TemplateError(`can't evaluate field ${op.name}`);
        return data.get(op.name) as Value;
      }
      case 'ident':
        return this.#call(op.name, []);
      case 'sub':
        return this.#pipeline(op.pipe, data);
      case 'string':
      case 'number':
      case 'bool':
        return op.value;
      case 'nil':
        return null;
      default:
        throw new TemplateError(`unexpected ${op.kind} in operand`);
    }
  }
}

/** Builds the node tree from the pieces, matching `if`/`else`/`end`. */
class Parser {
  #at = 0;
  constructor(
    private readonly pieces: Piece[],
    private readonly funcs: ReadonlyMap<string, TemplateFunction>,
  ) {}

  /** Nodes up to the end (or, inside an `if`, up to its `else` or `end`, left unconsumed). */
  nodes(inIf: boolean): Node[] {
    const out: Node[] = [];
    while (this.#at < this.pieces.length) {
      const piece = this.pieces[this.#at] as Piece;
      if (piece.kind === 'text') {
        out.push(piece);
        this.#at++;
        continue;
      }
      const [first] = piece.tokens;
      const keyword = first?.kind === 'ident' ? first.name : '';
      if (keyword === 'else' || keyword === 'end') {
        if (!inIf) throw new TemplateError(`unexpected {{${keyword}}}`);
        return out;
      }
      this.#at++;
      if (keyword === 'if') out.push(this.#if(piece.tokens.slice(1)));
      else out.push({ kind: 'output', pipe: this.#pipeline(piece.tokens) });
    }
    if (inIf) throw new TemplateError('unexpected EOF');
    return out;
  }

  #if(condition: Token[]): Node {
    const branches = [{ cond: this.#pipeline(condition), body: this.nodes(true) }];
    let otherwise: Node[] = [];
    for (;;) {
      const piece = this.pieces[this.#at++] as Extract<Piece, { kind: 'action' }>;
      const [, second] = piece.tokens;
      if ((piece.tokens[0] as { name: string }).name === 'end') break;
      if (second?.kind === 'ident' && second.name === 'if') {
        branches.push({ cond: this.#pipeline(piece.tokens.slice(2)), body: this.nodes(true) });
        continue;
      }
      if (piece.tokens.length > 1) throw new TemplateError('unexpected tokens after else');
      otherwise = this.nodes(true);
      const end = this.pieces[this.#at++] as Extract<Piece, { kind: 'action' }>;
      if ((end.tokens[0] as { name?: string }).name !== 'end') throw new TemplateError('expected end');
      break;
    }
    return { kind: 'if', branches, otherwise };
  }

  #pipeline(tokens: Token[]): Pipeline {
    const pipe: Pipeline = [];
    let command: Command = [];
    let i = 0;
    const operand = (): Operand => {
      const t = tokens[i++] as Token;
      if (t.kind === 'open') {
        const start = i;
        let depth = 1;
        while (i < tokens.length && depth > 0) {
          const k = (tokens[i++] as Token).kind;
          depth += k === 'open' ? 1 : k === 'close' ? -1 : 0;
        }
        if (depth > 0) throw new TemplateError('unclosed left paren');
        return { kind: 'sub', pipe: this.#pipeline(tokens.slice(start, i - 1)) };
      }
      if (t.kind === 'close') throw new TemplateError('unexpected right paren');
      if (t.kind === 'ident' && !this.funcs.has(t.name)) throw new TemplateError(`function "${t.name}" not defined`);
      return t;
    };
    while (i < tokens.length) {
      if ((tokens[i] as Token).kind === 'pipe') {
        if (command.length === 0) throw new TemplateError('missing command');
        pipe.push(command);
        command = [];
        i++;
      } else {
        command.push(operand());
      }
    }
    if (command.length === 0) throw new TemplateError('missing value for command');
    pipe.push(command);
    return pipe;
  }
}
