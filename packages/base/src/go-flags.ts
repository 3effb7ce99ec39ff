import { CodedError } from './coded-error.js';
import { DurationError, type DurationStyle, parseDuration } from './duration.js';
import { parseGoBool } from './go-bool.js';
import { isLogFormat, LOG_FORMATS, LOG_LEVELS, type LogLevel } from './logger.js';

/**
 * The exit status of a usage error (unknown command or flag, missing or bad argument) in ward,
 * ward-agent and ward-platform alike: what Go's flag package exits with.
 */
export const USAGE_EXIT_CODE = 2;

/** A command line the program cannot accept: printed with the usage, exit `USAGE_EXIT_CODE`. */
export class UsageError extends CodedError<'usage'> {
  readonly code = 'usage';
  readonly exitCode = USAGE_EXIT_CODE;
}

/** What every binary prints on stderr for a usage error: the reason, then the usage of what was run. */
export function usageErrorText(message: string, usage: string): string {
  return `Error: ${message}\n\n${usage.trimEnd()}\n`;
}

/**
 * What a flag takes: `bool` (bare `-x`, or `-x=false`), `string`, `int` (non-negative),
 * `list` (repeatable, values kept in order), `duration` (nanoseconds, see `parseDuration`) or
 * `log-level` (one of `LOG_LEVELS`, any case, as the `-log-level` flag of every binary) or
 * `log-format` (`standard` or `json`, as the `-log-format` flag of every binary).
 */
export type FlagKind = 'bool' | 'string' | 'int' | 'list' | 'duration' | 'log-level' | 'log-format';
export type FlagValue = boolean | string | number | string[] | bigint;

export interface ParsedFlags {
  /** Flag name → value; a repeated flag keeps its last value, a list every value. */
  values: Map<string, FlagValue>;
  /** The positional arguments, in order. */
  args: string[];
  /** `-h`, `-help` or `--help` was given: parsing stopped there, as Go's flag package does. */
  isHelp: boolean;
}

/** The flag syntax: one or two dashes, a name, optionally `=value`. */
const FLAG = /^--?([a-zA-Z][a-zA-Z0-9_.-]*)(?:=(.*))?$/s;
const HELP_NAMES: ReadonlySet<string> = new Set(['h', 'help']);

/** Whether `arg` asks for help: `-h`, `-help`, `--h` or `--help`. */
export function isHelpFlag(arg: string): boolean {
  return /^--?h(elp)?$/.test(arg);
}

/**
 * Parses a command line the established Go way, in all three binaries: `-name=value`,
 * `-name value`, `--name` as well as `-name`, a bare `-name` for booleans, `--` ends the flags,
 * `-` alone is an argument. Flags come first; after the first argument a word is still a flag
 * only if it names a declared one (`kv get secret/app -field=pw`, as the established secrets
 * CLI allows), so an argument such as `-` or `key=-1` is never mistaken for one.
 * Mistakes throw `UsageError` with Go's wording (`flag provided but not defined: -x`).
 */
export function parseGoFlags(
  argv: readonly string[],
  spec: ReadonlyMap<string, FlagKind>,
  durationStyle: DurationStyle,
): ParsedFlags {
  const values = new Map<string, FlagValue>();
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    const m = FLAG.exec(arg);
    const name = m?.[1] ?? '';
    const isDeclared = spec.has(name) || HELP_NAMES.has(name);
    if (!arg.startsWith('-') || arg === '-' || (args.length > 0 && !isDeclared)) {
      args.push(arg);
      continue;
    }
    if (!m) throw new UsageError(`bad flag syntax: ${arg}`);
    const kind = spec.get(name);
    if (kind === undefined && HELP_NAMES.has(name)) return { values, args, isHelp: true };
    if (kind === undefined) throw new UsageError(`flag provided but not defined: -${name}`);
    let raw = m[2];
    if (kind === 'bool') {
      values.set(name, raw === undefined ? true : parseBool(name, raw));
      continue;
    }
    if (raw === undefined) {
      raw = argv[++i];
      if (raw === undefined) throw new UsageError(`flag needs an argument: -${name}`);
    }
    values.set(name, convert(name, kind, raw, values.get(name), durationStyle));
  }
  return { values, args, isHelp: false };
}

function convert(
  name: string,
  kind: Exclude<FlagKind, 'bool'>,
  raw: string,
  previous: FlagValue | undefined,
  durationStyle: DurationStyle,
): FlagValue {
  switch (kind) {
    case 'int':
      if (!/^\d{1,15}$/.test(raw)) throw invalidValue(name, raw, 'not a whole number');
      return Number(raw);
    case 'duration':
      try {
        return parseDuration(raw, durationStyle);
      } catch (err) {
        if (err instanceof DurationError) throw invalidValue(name, raw, err.message);
        throw err;
      }
    case 'list':
      return [...((previous as string[] | undefined) ?? []), raw];
    case 'log-level': {
      const level = raw.toLowerCase();
      if (!LOG_LEVELS.includes(level as LogLevel)) throw invalidValue(name, raw, `not one of ${LOG_LEVELS.join(', ')}`);
      return level;
    }
    case 'log-format':
      if (!isLogFormat(raw)) throw invalidValue(name, raw, `not one of ${LOG_FORMATS.join(', ')}`);
      return raw;
    case 'string':
      return raw;
  }
}

function parseBool(name: string, raw: string): boolean {
  const value = parseGoBool(raw);
  if (value === undefined) throw invalidValue(name, raw, 'not a boolean (true or false)');
  return value;
}

/** The one wording of a bad flag value: `invalid value "1x" for flag -ttl: unknown unit "x" in duration "1x"`. */
function invalidValue(name: string, raw: string, reason: string): UsageError {
  return new UsageError(`invalid value ${JSON.stringify(raw)} for flag -${name}: ${reason}`);
}
