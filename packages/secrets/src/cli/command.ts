import {
  type Command as BaseCommand,
  commandDefiner,
  durationSeconds,
  type FlagSpec,
  type FlagSpecs,
  type FlagValues,
  flag,
} from '@ward/base';
import type { Client } from '@ward/secrets-client';
import type { ParsedArgs } from './flags.js';
import type { Output } from './output.js';
import type { TokenFile } from './token-file.js';

export { CliError } from '@ward/base';
export { flag };

/** What a command's `run` receives besides its arguments: everything it talks to is injected. */
export interface CommandContext {
  client: Client;
  /** Applies `-format` and `-field`. */
  out: Output;
  tokenFile: TokenFile;
  /** The environment of the run (the process's, or the one a test gives): read it here, never from `process.env`. */
  env: NodeJS.ProcessEnv;
  /** The command line of the run, after the program name (`debug` records it in its bundle). */
  argv: readonly string[];
  /** All of standard input (for `-` arguments). */
  readStdin(): Promise<string>;
  /** A secret typed at the terminal without echo after `label`; one line of stdin when it is not a terminal. */
  readSecret(label: string): Promise<string>;
  readFile(path: string): Promise<string>;
  /** Bytes to standard output as they come, undecorated (`monitor`'s log lines); resolves once written. */
  writeRaw(chunk: Uint8Array | string): Promise<void>;
  /** Runs a program found on PATH on the run's streams (`ward ssh` runs `ssh`); resolves with its exit status. */
  runProgram(program: string, args: readonly string[], extraEnv?: Record<string, string>): Promise<number>;
}

export interface CommandSpec<F extends FlagSpecs> {
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
  run(input: { flags: FlagValues<F, string>; args: string[] }, ctx: CommandContext): Promise<number | undefined>;
}

/** A `ward` command, ready for the table (the shared shape; see `commandDefiner` in @ward/base). */
export type Command = BaseCommand<CommandIO>;

/** What a command may touch of the process; main.ts passes the real ones. */
export interface Runtime {
  env: NodeJS.ProcessEnv;
  /** The command line after the program name. */
  argv: readonly string[];
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
const GLOBAL_FLAGS: FlagSpecs = {
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

/** `ward`'s way of running a command: the global flags, API durations sent as `"90s"`, a client context. */
const defineWardCommand = commandDefiner<CommandIO, CommandContext, string>({
  globalFlags: GLOBAL_FLAGS,
  durationStyle: 'api',
  durationValue: (ns) => `${durationSeconds(ns)}s`,
  // A mistake prints one line and where the usage is, as established, not 25 lines of usage.
  usageHint: (name) => `Run "ward ${name} -help" for the options and an example.`,
  stdout: (io) => io.runtime.stdout,
  context: (parsed, io) => io.makeContext(parsed),
});

/**
 * Declares a command that starts a process of its own (`ward server`, `ward proxy`): no global
 * flags and no client; `run` gets the process's `Runtime`, and its help is written out.
 */
export const defineProcessCommand = commandDefiner<CommandIO, Runtime, string>({
  globalFlags: {},
  durationStyle: 'api',
  durationValue: (ns) => `${durationSeconds(ns)}s`,
  usageHint: (name) => `Run "ward ${name} -help" for the options.`,
  stdout: (io) => io.runtime.stdout,
  context: async (_parsed, io) => io.runtime,
});

/** Declares a command; see `CommandSpec`. */
export function defineCommand<F extends FlagSpecs>(spec: CommandSpec<F>): Command {
  return defineWardCommand({ ...spec, help: () => commandHelp(spec) });
}

function commandHelp(spec: CommandSpec<FlagSpecs>): string {
  const line = (name: string, f: FlagSpec) => {
    const value = f.kind === 'list' ? 'VALUE (repeatable)' : f.kind === 'duration' ? 'DURATION' : 'VALUE';
    const left = f.kind === 'bool' ? `-${name}` : `-${name}=${value}`;
    const def = (f.kind === 'string' || f.kind === 'bool') && f.default !== undefined ? ` (default ${f.default})` : '';
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
