import { type FlagKind, parseGoFlags, UsageError, usageErrorText } from '@ward/base';
import { AgentApi, ApiError, apiTarget } from './api.js';
import type { Command } from './command.js';

const COMMON_FLAGS: ReadonlyArray<[string, FlagKind]> = [
  ['address', 'string'],
  ['token', 'string'],
];

/**
 * Runs one API command: `-help` prints its help (exit 0), a usage error prints the
 * message and the help to stderr (exit 2), an API failure prints `Error: …` (exit 1).
 */
export async function runCommand(command: Command, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const spec = new Map<string, FlagKind>([...COMMON_FLAGS, ...command.flags]);
  let parsed: ReturnType<typeof parseGoFlags>;
  try {
    parsed = parseGoFlags(argv, spec, 'go');
  } catch (err) {
    if (err instanceof UsageError) return usage(command, err);
    throw err;
  }
  if (parsed.isHelp) {
    process.stdout.write(command.help);
    return 0;
  }
  const target = apiTarget(
    {
      address: parsed.values.get('address') as string | undefined,
      token: parsed.values.get('token') as string | undefined,
    },
    env,
  );
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await command.run({
      flags: parsed.values,
      args: parsed.args,
      api: new AgentApi(target),
      env,
      out: process.stdout,
      err: process.stderr,
      signal: abort.signal,
    });
  } catch (err) {
    if (err instanceof UsageError) return usage(command, err);
    if (err instanceof ApiError) {
      process.stderr.write(`Error running ${command.name}: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function usage(command: Command, err: UsageError): number {
  process.stderr.write(usageErrorText(err.message, command.help));
  return err.exitCode;
}
