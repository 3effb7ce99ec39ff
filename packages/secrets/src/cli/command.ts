import type { FlagKind } from '@ward/base';
import type { Client } from '@ward/secrets-client';
import { flagValue, type ParsedArgs, parseArgs, UsageError } from './flags.js';
import type { Output } from './output.js';
import type { TokenFile } from './token-file.js';

export { CliError } from './cli-error.js';

type StringFlag = { kind: 'string'; description: string; default?: string };
type BoolFlag = { kind: 'bool'; description: string };
type ListFlag = { kind: 'list'; description: string };
type DurationFlag = { kind: 'duration'; description: string };
export type FlagSpec = StringFlag | BoolFlag | ListFlag | DurationFlag;

function stringFlag(description: string): { kind: 'string'; description: string };
function stringFlag(
  description: string,
  defaultValue: string,
): { kind: 'string'; description: string; default: string };
function stringFlag(description: string, defaultValue?: string): StringFlag {
  return defaultValue === undefined
    ? { kind: 'string', description }
    : { kind: 'string', description, default: defaultValue };
}

/**
 * Flag declarations: `-name=value` strings, bare `-name` booleans, repeatable lists, and
 * durations (`1h30m`, `90s`, `90`, `7d`) checked by the shared parser and sent as whole seconds.
 */
export const flag = {
  string: stringFlag,
  bool: (description: string): BoolFlag => ({ kind: 'bool', description }),
  list: (description: string): ListFlag => ({ kind: 'list', description }),
  duration: (description: string): DurationFlag => ({ kind: 'duration', description }),
};

/** The typed values of declared flags. */
export type FlagValues<F extends Record<string, FlagSpec>> = {
  [K in keyof F]: F[K] extends BoolFlag
    ? boolean
    : F[K] extends ListFlag
      ? string[]
      : F[K] extends { default: string }
        ? string
        : string | undefined;
};

/** What a command's `run` receives besides its arguments: everything it talks to is injected. */
export interface CommandContext {
  client: Client;
  /** Applies `-format` and `-field`. */
  out: Output;
  tokenFile: TokenFile;
  /** All of standard input (for `-` arguments). */
  readStdin(): Promise<string>;
  /** A secret typed at the terminal without echo after `label`; one line of stdin when it is not a terminal. */
  readSecret(label: string): Promise<string>;
  readFile(path: string): Promise<string>;
  /** Bytes to standard output as they come, undecorated (`monitor`'s log lines); resolves once written. */
  writeRaw(chunk: Uint8Array | string): Promise<void>;
}

export interface CommandSpec<F extends Record<string, FlagSpec>> {
  /** Words that select the command: `kv get`, `operator init`. */
  name: string;
  summary: string;
  /** Positional synopsis after the options, e.g. `PATH [K=V ...]`. */
  usage: string;
  /** One complete command line a user can copy, shown by `-help`. */
  example: string;
  /** More detail for `-help`. */
  description?: string;
  flags: F;
  /** How many positional arguments are allowed. */
  args: { min: number; max?: number };
  /** Returns the exit status when it is not 0 (e.g. `status` of a sealed server). */
  run(input: { flags: FlagValues<F>; args: string[] }, ctx: CommandContext): Promise<number | undefined>;
}

/** A client command, ready for the table: parses its own flags, gets a context, runs. */
export interface Command {
  name: string;
  summary: string;
  help(): string;
  /** The flags it takes, so the shared parser decides whether `-h` asks for help or is a flag's value. */
  flags: ReadonlyMap<string, FlagKind>;
  /** Runs with `argv` (the words after the command name); returns the exit status. */
  execute(argv: string[], io: CommandIO): Promise<number>;
}

/** What a command may touch of the process; main.ts passes the real ones. */
export interface Runtime {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  /** Where prompts go, so they never mix with the output a script captures. */
  stderr: NodeJS.WritableStream;
}

/** The process and the way to build a client context, handed to every command. */
export interface CommandIO {
  runtime: Runtime;
  makeContext: ContextFactory;
}

/** Builds the context from the global flags (address, TLS, format, …) and the environment. */
export type ContextFactory = (globals: ParsedArgs) => Promise<CommandContext & { close(): Promise<void> }>;

/** Flags every client command takes, as the established CLI does. */
const GLOBAL_FLAGS: Record<string, FlagSpec> = {
  address: flag.string('Server address (env WARD_ADDR or VAULT_ADDR; default https://127.0.0.1:8200).'),
  namespace: flag.string('Namespace for the request (env VAULT_NAMESPACE).'),
  'wrap-ttl': flag.duration(
    'Wrap the response: print a single-use token valid this long (e.g. 5m) that `ward unwrap` turns back into it (env VAULT_WRAP_TTL).',
  ),
  'ca-cert': flag.string('PEM file of the CA that signed the server certificate (env VAULT_CACERT).'),
  'tls-skip-verify': flag.bool('Do not verify the server certificate (env VAULT_SKIP_VERIFY). Insecure.'),
  'client-cert': flag.string('PEM client certificate for TLS (env VAULT_CLIENT_CERT); with -client-key.'),
  'client-key': flag.string('PEM key of the client certificate (env VAULT_CLIENT_KEY).'),
  format: flag.string('Output format: table, json or yaml (env VAULT_FORMAT).'),
  field: flag.string('Print only this field of the result, without decoration.'),
  'output-curl-string': flag.bool('Print the request as a curl command line instead of sending it.'),
  'output-policy': flag.bool('Print the policy a token needs to make the request, instead of sending it.'),
};

/** Declares a command; see `CommandSpec`. */
export function defineCommand<F extends Record<string, FlagSpec>>(spec: CommandSpec<F>): Command {
  const kinds = new Map<string, FlagKind>(
    Object.entries({ ...GLOBAL_FLAGS, ...spec.flags }).map(([name, f]) => [name, f.kind]),
  );
  return {
    name: spec.name,
    summary: spec.summary,
    help: () => commandHelp(spec),
    flags: kinds,
    async execute(argv, { makeContext }) {
      // A mistake prints one line and where the usage is, as established, not 25 lines of usage.
      const hint = `Run "ward ${spec.name} -help" for the options and an example.`;
      const parsed = parseArgs(argv, kinds, hint);
      const { min, max } = spec.args;
      const n = parsed.args.length;
      if (n < min || (max !== undefined && n > max)) {
        const expected = max === undefined ? `at least ${min}` : min === max ? `${min}` : `${min} to ${max}`;
        throw new UsageError(`expected ${expected} argument(s), got ${n}\n${hint}`);
      }
      const ctx = await makeContext(parsed);
      try {
        return (await spec.run({ flags: flagValues(spec.flags, parsed), args: parsed.args }, ctx)) ?? 0;
      } finally {
        await ctx.close();
      }
    },
  };
}

function flagValues<F extends Record<string, FlagSpec>>(specs: F, parsed: ParsedArgs): FlagValues<F> {
  const values: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(specs)) {
    if (f.kind === 'bool') values[name] = parsed.values.get(name) === true;
    else if (f.kind === 'list') values[name] = parsed.values.get(name) ?? [];
    else values[name] = flagValue(parsed, name) ?? (f.kind === 'string' ? f.default : undefined);
  }
  return values as FlagValues<F>;
}

function commandHelp(spec: CommandSpec<Record<string, FlagSpec>>): string {
  const line = (name: string, f: FlagSpec) => {
    const value = f.kind === 'list' ? 'VALUE (repeatable)' : f.kind === 'duration' ? 'DURATION' : 'VALUE';
    const left = f.kind === 'bool' ? `-${name}` : `-${name}=${value}`;
    const def = f.kind === 'string' && f.default !== undefined ? ` (default ${f.default})` : '';
    return `  ${left.padEnd(32)} ${f.description}${def}`;
  };
  return [
    `Usage: ward ${spec.name} [options] ${spec.usage}`.trimEnd(),
    '',
    `  ${spec.summary}`,
    ...(spec.description ? ['', ...spec.description.split('\n').map((l) => `  ${l}`.trimEnd())] : []),
    '',
    'Example:',
    `  $ ${spec.example}`,
    '',
    ...(Object.keys(spec.flags).length > 0
      ? ['Command options:', ...Object.entries(spec.flags).map(([n, f]) => line(n, f)), '']
      : []),
    'Global options:',
    ...Object.entries(GLOBAL_FLAGS).map(([n, f]) => line(n, f)),
    '',
  ].join('\n');
}
