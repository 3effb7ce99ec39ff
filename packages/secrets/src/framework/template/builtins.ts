import type { TemplateFunction } from './template.js';
import { bytesOf, isTrue, TemplateError, textOf, type Value } from './values.js';

/** Checks the argument count (Go's message) and hands the arguments on. */
export function arity(name: string, want: number, fn: (args: Value[]) => Value): TemplateFunction {
  return (args) => {
    if (args.length !== want)
      throw new TemplateError(`wrong number of args for ${name}: want ${want} got ${args.length}`);
    return fn(args);
  };
}

export function intArg(value: Value): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TemplateError(
      `wrong type for value; expected int; got ${typeof value === 'number' ? 'float64' : 'string'}`,
    );
  }
  return value;
}

type Kind = 'int' | 'float' | 'string' | 'bool' | 'nil';
function kindOf(v: Value): Kind {
  if (v === null) return 'nil';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

function comparable(a: Value, b: Value): [string | number | boolean | null, string | number | boolean | null] {
  const ka = kindOf(a);
  const kb = kindOf(b);
  const numeric = (k: Kind) => k === 'int' || k === 'float';
  if (ka !== kb && !(numeric(ka) && numeric(kb))) throw new TemplateError('incompatible types for comparison');
  const plain = (v: Value) => (Buffer.isBuffer(v) ? v.toString('latin1') : v);
  return [plain(a), plain(b)];
}

function ordered(name: string, test: (a: number | string, b: number | string) => boolean): TemplateFunction {
  return arity(name, 2, ([a, b]) => {
    const [x, y] = comparable(a as Value, b as Value);
    if (typeof x === 'boolean' || x === null) throw new TemplateError(`invalid type for comparison`);
    return test(x as number | string, y as number | string);
  });
}

/** Go's `fmt` for the verbs templates use: %s %v %d %q %x %X %f %t %%, with width and `-` flag. */
export function sprintf(format: string, args: Value[]): string {
  let next = 0;
  return format.replace(/%([-+ 0#]*)(\d*)(?:\.(\d+))?([a-zA-Z%])/g, (_m, flags: string, width: string, prec, verb) => {
    if (verb === '%') return '%';
    if (next >= args.length) return `%!${verb}(MISSING)`;
    const arg = args[next++] as Value;
    let text: string;
    switch (verb) {
      case 'd':
        text = typeof arg === 'number' ? String(Math.trunc(arg)) : `%!d(string=${textOf(arg)})`;
        break;
      case 'q':
        text = goQuote(textOf(arg));
        break;
      case 'x':
      case 'X':
        text = typeof arg === 'number' ? arg.toString(16) : bytesOf(arg).toString('hex');
        if (verb === 'X') text = text.toUpperCase();
        break;
      case 'f':
        text = typeof arg === 'number' ? arg.toFixed(prec === undefined ? 6 : Number(prec)) : `%!f(${textOf(arg)})`;
        break;
      default:
        text = textOf(arg);
    }
    const pad = Number(width || 0) - [...text].length;
    if (pad <= 0) return text;
    return flags.includes('-') ? text + ' '.repeat(pad) : (flags.includes('0') ? '0' : ' ').repeat(pad) + text;
  });
}

/** Go's `%q`: double quotes, `"` and `\` escaped, non-printable characters as escapes. */
function goQuote(text: string): string {
  let out = '"';
  for (const c of text) {
    const code = c.codePointAt(0) as number;
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(c)) {
      out += code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += c;
  }
  return `${out}"`;
}

/** Go's `print`: a space between two operands only when neither is a string. */
function goPrint(args: Value[]): string {
  let out = '';
  args.forEach((arg, i) => {
    const prev = args[i - 1];
    const isString = (v: Value | undefined) => typeof v === 'string' || Buffer.isBuffer(v);
    if (i > 0 && !isString(prev) && !isString(arg)) out += ' ';
    out += textOf(arg);
  });
  return out;
}

/** The template language's own functions that the spec's templates use. */
export const BUILTIN_FUNCTIONS: ReadonlyMap<string, TemplateFunction> = new Map<string, TemplateFunction>([
  ['printf', (args) => sprintf(textOf(args[0] ?? ''), args.slice(1))],
  ['print', goPrint],
  ['and', (args) => args.find((a) => !isTrue(a)) ?? args[args.length - 1] ?? null],
  ['or', (args) => args.find((a) => isTrue(a)) ?? args[args.length - 1] ?? null],
  ['not', arity('not', 1, ([a]) => !isTrue(a as Value))],
  ['len', arity('len', 1, ([a]) => bytesOf(a as Value).length)],
  [
    'eq',
    (args) => {
      const [first, ...rest] = args;
      if (first === undefined || rest.length === 0) throw new TemplateError('missing argument for comparison');
      return rest.some((b) => {
        const [x, y] = comparable(first, b);
        return x === y;
      });
    },
  ],
  [
    'ne',
    arity('ne', 2, ([a, b]) => {
      const [x, y] = comparable(a as Value, b as Value);
      return x !== y;
    }),
  ],
  ['lt', ordered('lt', (a, b) => a < b)],
  ['le', ordered('le', (a, b) => a <= b)],
  ['gt', ordered('gt', (a, b) => a > b)],
  ['ge', ordered('ge', (a, b) => a >= b)],
]);
