import type { DurationStyle } from '../duration.js';
import { type FlagKind, type FlagValue, type ParsedFlags, parseGoFlags, UsageError } from '../go-flags.js';
import { type FlagSpecs, type FlagValues, flagKinds, flagValues } from './flag-spec.js';

/** What a command's `run` gets besides its context. */
export interface RunInput<F extends FlagSpecs, D> {
  flags: FlagValues<F, D>;
  args: string[];
  /** The flags as given, for a command that must tell one left out from its default (a config file fills those). */
  given: ReadonlyMap<string, FlagValue>;
}

/** One command, declared: one file holds one of these, and the binary's table one line for it. */
export interface CommandSpec<F extends FlagSpecs, Ctx, D> {
  /** The words that select it: `kv get`, `acl token create`, `admin create`. */
  name: string;
  summary: string;
  flags: F;
  /** How many positional arguments are allowed, checked before `run` (leave out to check in `run`). */
  args?: { min: number; max?: number };
  /** What `-help` prints: written out, or made from the declaration by the binary's `defineCommand`. */
  help: string | (() => string);
  /** Resolves to the exit status; `undefined` is 0. Errors go to the binary's `main`, the one place that maps them to a status. */
  run(input: RunInput<F, D>, ctx: Ctx): Promise<number | undefined>;
}

/** A command ready for the table; `Io` is what the binary's `main` hands every command. */
export interface Command<Io> {
  name: string;
  summary: string;
  /** Its flags and the global ones, so `main` can tell `-h` as a request for help from a flag's value. */
  flags: ReadonlyMap<string, FlagKind>;
  help(): string;
  /** Parses `argv` (the words after the name), builds the context, runs; `-help` prints the help (0). */
  execute(argv: string[], io: Io): Promise<number>;
}

/** How one binary runs its commands. */
export interface CommandLine<Io, Ctx, D> {
  /** Flags every command takes besides its own (ward's `-address`, `-format`, …). */
  globalFlags: FlagSpecs;
  durationStyle: DurationStyle;
  /** A duration flag's value as commands see it (ward sends `"90s"`, the others keep nanoseconds). */
  durationValue(ns: bigint): D;
  /** A line added to a mistake found before `run` (ward points at `-help`; the others print the whole help). */
  usageHint?(name: string): string;
  /** Where `-help` is written. */
  stdout(io: Io): { write(text: string): unknown };
  /** The context `run` gets, from the parsed command line (the global flags) and `io`; closed after `run`. */
  context(parsed: ParsedFlags, io: Io): Promise<Ctx & { close?(): Promise<void> }>;
}

/** The `defineCommand` of one binary: every command of it parses, checks and runs the same way. */
export function commandDefiner<Io, Ctx, D>(line: CommandLine<Io, Ctx, D>) {
  return function defineCommand<F extends FlagSpecs>(spec: CommandSpec<F, Ctx, D>): Command<Io> {
    const kinds = flagKinds(line.globalFlags, spec.flags);
    const help = typeof spec.help === 'string' ? () => spec.help as string : spec.help;
    const hinted = (message: string) =>
      new UsageError(line.usageHint ? `${message}\n${line.usageHint(spec.name)}` : message);
    return {
      name: spec.name,
      summary: spec.summary,
      flags: kinds,
      help,
      async execute(argv, io) {
        let parsed: ParsedFlags;
        try {
          parsed = parseGoFlags(argv, kinds, line.durationStyle);
        } catch (err) {
          throw err instanceof UsageError ? hinted(err.message) : err;
        }
        if (parsed.isHelp) {
          line.stdout(io).write(help());
          return 0;
        }
        if (spec.args) checkArgCount(spec.args, parsed.args.length, hinted);
        const ctx = await line.context(parsed, io);
        try {
          const flags = flagValues(spec.flags, parsed, (ns) => line.durationValue(ns));
          return (await spec.run({ flags, args: parsed.args, given: parsed.values }, ctx)) ?? 0;
        } finally {
          await ctx.close?.();
        }
      },
    };
  };
}

function checkArgCount(
  { min, max }: { min: number; max?: number },
  n: number,
  error: (message: string) => UsageError,
): void {
  if (n >= min && (max === undefined || n <= max)) return;
  const expected = max === undefined ? `at least ${min}` : min === max ? `${min}` : `${min} to ${max}`;
  throw error(`expected ${expected} argument(s), got ${n}`);
}
