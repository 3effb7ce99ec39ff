import { durationSeconds, type FlagKind, type ParsedFlags, parseGoFlags, UsageError } from '@ward/base';

/** A mistake in how the command was called: exits with status 2 and the message. */
export { UsageError };
export type ParsedArgs = ParsedFlags;

/**
 * Parses a command line with the parser all three binaries share (`-name=value`, `-name value`,
 * `--name`, bare booleans; see `parseGoFlags`); a mistake comes with `help`, one line saying
 * where the usage is (the whole usage only where no command was found).
 * Durations take the secrets API's forms too: a bare integer is seconds, `7d` is days.
 */
export function parseArgs(argv: readonly string[], spec: ReadonlyMap<string, FlagKind>, help: string): ParsedArgs {
  try {
    return parseGoFlags(argv, spec, 'api');
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${err.message}\n${help}`);
    throw err;
  }
}

/**
 * A string or duration flag's value as the API takes it: the text, or whole seconds (`"90s"`)
 * for a duration, as the established CLI sends them.
 */
export function flagValue(args: ParsedArgs, name: string): string | undefined {
  const value = args.values.get(name);
  if (typeof value === 'bigint') return `${durationSeconds(value)}s`;
  return typeof value === 'string' ? value : undefined;
}

export function flagBool(args: ParsedArgs, name: string): boolean {
  return args.values.get(name) === true;
}
