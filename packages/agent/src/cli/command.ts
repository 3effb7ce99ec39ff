import type { Writable } from 'node:stream';
import { type FlagKind, type FlagValue, UsageError } from '@ward/base';
import { splitCommas } from '../config/flags.js';
import type { AgentApi } from './api.js';

/** What a command gets: its parsed flags and arguments, the API client, and where to write. */
export interface CommandContext {
  flags: Map<string, FlagValue>;
  args: string[];
  api: AgentApi;
  env: NodeJS.ProcessEnv;
  out: Writable;
  err: Writable;
  /** Aborted on SIGINT/SIGTERM (long-running commands such as monitor stop then). */
  signal: AbortSignal;
}

/** One CLI command; every command also takes -address, -token and -help. */
export interface Command {
  /** The words that select it, e.g. `acl token create`. */
  name: string;
  synopsis: string;
  /** Usage line, description, the command's own flags and an example. */
  help: string;
  flags: ReadonlyMap<string, FlagKind>;
  /** Resolves to the exit code. Throws `UsageError` (exit 2) or `ApiError` (exit 1). */
  run(ctx: CommandContext): Promise<number>;
}

/** Throws the usage error of a command that takes no positional arguments. */
export function noArgs(ctx: CommandContext): void {
  if (ctx.args.length > 0) throw new UsageError('This command takes no arguments');
}

/** `-json` output: the value indented by 4, as the established CLI prints it. */
export function writeJson(ctx: CommandContext, value: unknown): void {
  ctx.out.write(`${JSON.stringify(value, null, 4)}\n`);
}

export function flagString(ctx: CommandContext, name: string, fallback = ''): string {
  const v = ctx.flags.get(name);
  return typeof v === 'string' ? v : fallback;
}

export function flagBool(ctx: CommandContext, name: string): boolean {
  return ctx.flags.get(name) === true;
}

/** A duration flag's value in nanoseconds. */
export function flagDuration(ctx: CommandContext, name: string, fallback: bigint): bigint {
  const v = ctx.flags.get(name);
  return typeof v === 'bigint' ? v : fallback;
}

export function flagList(ctx: CommandContext, name: string): string[] {
  const v = ctx.flags.get(name);
  return Array.isArray(v) ? splitCommas(v) : [];
}

/** The help text every API command ends with. */
export const COMMON_FLAGS_HELP = `
General options:
  -address=<addr>  The agent's HTTP address (env WARD_AGENT_ADDR, NOMAD_ADDR; default http://127.0.0.1:4646)
  -token=<secret>  ACL token (env WARD_AGENT_TOKEN, NOMAD_TOKEN)
  -help            Show this help
`;
