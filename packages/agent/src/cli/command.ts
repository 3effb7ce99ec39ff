import type { Writable } from 'node:stream';
import { type Command as BaseCommand, commandDefiner, flag, UsageError } from '@ward/base';
import { AgentApi, apiTarget } from './api.js';

export { flag };

/** What `main` hands every command: the process's environment and streams. */
export interface AgentIo {
  env: NodeJS.ProcessEnv;
  out: Writable;
  err: Writable;
}

/** What a command's `run` gets besides its flags and arguments: the API client, and where to write. */
export interface CommandContext extends AgentIo {
  api: AgentApi;
  /** Aborted on SIGINT/SIGTERM (long-running commands such as monitor stop then). */
  signal: AbortSignal;
}

/** A `ward-agent` API command, ready for the table. */
export type Command = BaseCommand<AgentIo>;

/**
 * Declares a `ward-agent` API command (one file in commands/, one line in command-table.ts): Go
 * flags and durations (nanoseconds), `-address` and `-token` on every command, the help written
 * out (ending in `COMMON_FLAGS_HELP`). A `UsageError` exits 2 with the help, an `ApiError` 1.
 */
export const defineCommand = commandDefiner<AgentIo, CommandContext, bigint>({
  globalFlags: { address: flag.string(), token: flag.string() },
  durationStyle: 'go',
  durationValue: (ns) => ns,
  stdout: (io) => io.out,
  async context(parsed, io) {
    const given = (name: string) => parsed.values.get(name) as string | undefined;
    const target = apiTarget({ address: given('address'), token: given('token') }, io.env);
    const abort = new AbortController();
    const stop = () => abort.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return {
      ...io,
      api: new AgentApi(target),
      signal: abort.signal,
      async close() {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      },
    };
  },
});

/** Throws the usage error of a command that takes no positional arguments. */
export function noArgs(args: readonly string[]): void {
  if (args.length > 0) throw new UsageError('This command takes no arguments');
}

/** `-json` output: the value indented by 4, as the established CLI prints it. */
export function writeJson(ctx: CommandContext, value: unknown): void {
  ctx.out.write(`${JSON.stringify(value, null, 4)}\n`);
}

/** The help text every API command ends with. */
export const COMMON_FLAGS_HELP = `
General options:
  -address=<addr>  The agent's HTTP address (env WARD_AGENT_ADDR, NOMAD_ADDR; default http://127.0.0.1:4646)
  -token=<secret>  ACL token (env WARD_AGENT_TOKEN, NOMAD_TOKEN)
  -help            Show this help
`;
