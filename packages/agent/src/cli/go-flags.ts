import { parseDurationMs } from '../config/duration.js';
import { ConfigError } from '../config/errors.js';

/** A command line the command cannot accept: the CLI prints it with the usage and exits 2. */
export class UsageError extends ConfigError {}

export type FlagKind = 'bool' | 'string' | 'int' | 'list' | 'duration';
export type FlagValue = boolean | string | number | string[];

export interface ParsedArgs {
  /** Flag name → value; lists accumulate (repeated or comma-separated). */
  values: Map<string, FlagValue>;
  /** The non-flag arguments, in order. */
  args: string[];
}

/**
 * Parses flags the established Go way: `-name=value`, `-name value`, `--name`, and a
 * bare `-name` for booleans (`-name=false` to turn one off). Flags may come before or
 * after the positional arguments; everything after `--` is positional.
 */
export function parseGoFlags(argv: readonly string[], spec: ReadonlyMap<string, FlagKind>): ParsedArgs {
  const values = new Map<string, FlagValue>();
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    const m = /^--?([a-zA-Z][a-zA-Z0-9-]*)(?:=(.*))?$/s.exec(arg);
    if (!m) {
      if (arg.startsWith('-') && arg !== '-') throw new UsageError(`bad flag syntax: ${arg}`);
      args.push(arg);
      continue;
    }
    const name = m[1] as string;
    const kind = spec.get(name);
    if (!kind) throw new UsageError(`flag provided but not defined: -${name}`);
    let raw = m[2];
    if (kind === 'bool') {
      values.set(name, raw === undefined ? true : parseBool(name, raw));
      continue;
    }
    if (raw === undefined) {
      raw = argv[++i];
      if (raw === undefined) throw new UsageError(`flag needs an argument: -${name}`);
    }
    values.set(name, convert(name, kind, raw, values.get(name)));
  }
  return { values, args };
}

function convert(name: string, kind: FlagKind, raw: string, prev: FlagValue | undefined): FlagValue {
  switch (kind) {
    case 'int':
      if (!/^\d+$/.test(raw)) throw new UsageError(`invalid value ${JSON.stringify(raw)} for flag -${name}`);
      return Number(raw);
    case 'duration':
      try {
        return parseDurationMs(raw, `-${name}`);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
    case 'list': {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return [...((prev as string[] | undefined) ?? []), ...items];
    }
    default:
      return raw;
  }
}

function parseBool(name: string, raw: string): boolean {
  if (['true', '1', 't'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'f'].includes(raw.toLowerCase())) return false;
  throw new UsageError(`invalid boolean value ${JSON.stringify(raw)} for flag -${name}`);
}
