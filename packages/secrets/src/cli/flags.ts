/**
 * Go-style flags as the established CLI takes them: `-name=value`, `-name value`,
 * `--name=value`, and bare `-name` for booleans. Everything after the first
 * non-flag argument (or `--`) is positional.
 */
export interface ParsedArgs {
  flags: Map<string, string[]>;
  positionals: string[];
}

export function parseArgs(
  argv: readonly string[],
  booleanFlags: ReadonlySet<string>,
  knownFlags?: ReadonlySet<string>,
): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq === -1 ? body : body.slice(0, eq);
    // After the first argument, only a flag the command declares is still a flag (`kv get
    // secret/app -field=pw` works, as with the established CLI); anything else is an argument.
    const isLateFlag = positionals.length > 0 && knownFlags?.has(name) === true;
    if (!arg.startsWith('-') || arg === '-' || (positionals.length > 0 && !isLateFlag)) {
      positionals.push(arg);
      continue;
    }
    let value: string;
    if (eq !== -1) value = body.slice(eq + 1);
    else if (booleanFlags.has(name)) value = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`flag needs an argument: -${name}`);
      value = next;
      i++;
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { flags, positionals };
}

/** A mistake in how the command was called; exits with status 1 and the message. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The last value of a flag (the established CLI lets a later flag override an earlier one). */
export function flagValue(args: ParsedArgs, name: string): string | undefined {
  return args.flags.get(name)?.at(-1);
}

export function flagBool(args: ParsedArgs, name: string): boolean {
  const v = flagValue(args, name);
  return v !== undefined && v !== 'false' && v !== '0';
}
