import type { FlagKind, FlagValue, ParsedFlags } from '../go-flags.js';

/**
 * One declared flag: its kind (what `parseGoFlags` accepts), the line `-help` shows for it where
 * the help is generated, and for a string flag the value it has when left out.
 */
export type FlagSpec =
  | { kind: 'string'; description: string; default?: string }
  | { kind: 'bool'; description: string; default?: boolean }
  | { kind: 'list' | 'duration' | 'int' | 'log-level' | 'log-format'; description: string };
export type FlagSpecs = Record<string, FlagSpec>;

type Flag<K extends FlagKind> = { kind: K; description: string };

function stringFlag(description?: string): Flag<'string'>;
function stringFlag(description: string, defaultValue: string): Flag<'string'> & { default: string };
function stringFlag(description = '', defaultValue?: string): FlagSpec {
  return defaultValue === undefined
    ? { kind: 'string', description }
    : { kind: 'string', description, default: defaultValue };
}

/**
 * Flag declarations. The description may be left out where a command writes its help by hand
 * (ward-agent, ward-platform); ward's help is generated from it.
 */
export const flag = {
  string: stringFlag,
  /** Set by a bare `-flag`; `defaultValue` true makes it one a user turns off with `-flag=false`. */
  bool: (description = '', defaultValue = false): Flag<'bool'> & { default?: boolean } =>
    defaultValue ? { kind: 'bool', description, default: true } : { kind: 'bool', description },
  /** Repeatable; the values in the order given. */
  list: (description = ''): Flag<'list'> => ({ kind: 'list', description }),
  /** Go durations (`1h30m`), and per binary bare seconds and days; see `DurationStyle`. */
  duration: (description = ''): Flag<'duration'> => ({ kind: 'duration', description }),
  /** A non-negative whole number. */
  int: (description = ''): Flag<'int'> => ({ kind: 'int', description }),
  logLevel: (description = ''): Flag<'log-level'> => ({ kind: 'log-level', description }),
  logFormat: (description = ''): Flag<'log-format'> => ({ kind: 'log-format', description }),
};

/**
 * The typed values of declared flags: a bool is `false` and a list `[]` when left out, a string
 * its default or `undefined`; a duration is `D`, what the binary turns nanoseconds into.
 */
export type FlagValues<F extends FlagSpecs, D = bigint> = {
  [K in keyof F]: F[K]['kind'] extends 'bool'
    ? boolean
    : F[K]['kind'] extends 'list'
      ? string[]
      : F[K]['kind'] extends 'int'
        ? number | undefined
        : F[K]['kind'] extends 'duration'
          ? D | undefined
          : F[K] extends { default: string }
            ? string
            : string | undefined;
};

/** Name → kind, what the parser takes. */
export function flagKinds(...specs: FlagSpecs[]): Map<string, FlagKind> {
  return new Map(specs.flatMap((s) => Object.entries(s).map(([name, f]): [string, FlagKind] => [name, f.kind])));
}

/** The declared flags' values out of a parse; `duration` converts a duration's nanoseconds. */
export function flagValues<F extends FlagSpecs, D>(
  specs: F,
  parsed: ParsedFlags,
  duration: (ns: bigint) => D,
): FlagValues<F, D> {
  const values: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(specs)) {
    const value: FlagValue | undefined = parsed.values.get(name);
    if (f.kind === 'bool') values[name] = value === undefined ? f.default === true : value === true;
    else if (f.kind === 'list') values[name] = value ?? [];
    else if (typeof value === 'bigint') values[name] = duration(value);
    else values[name] = value ?? (f.kind === 'string' ? f.default : undefined);
  }
  return values as FlagValues<F, D>;
}
