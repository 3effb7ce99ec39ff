import type { CommandContext } from './command.js';
import { UsageError } from './flags.js';

/**
 * The data arguments of `write`, `kv put` and `login`: `k=v` pairs, where `k=@file` takes
 * the file's contents and `k=-` reads standard input; a lone `-` reads a JSON object from stdin,
 * a lone `@file` one from a file.
 */
export async function parseDataArgs(args: string[], ctx: CommandContext): Promise<Record<string, unknown>> {
  const [only] = args;
  if (args.length === 1 && only === '-') return jsonObject(await ctx.readStdin(), 'stdin');
  // A lone `@file` is a JSON object in a file, as established (`ward kv put secret/app @data.json`).
  if (args.length === 1 && only?.startsWith('@')) return jsonObject(await ctx.readFile(only.slice(1)), only.slice(1));
  // Entries then fromEntries: a `__proto__=…` argument stays an ordinary key.
  const entries: [string, unknown][] = [];
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) throw new UsageError(`invalid key/value pair "${arg}": expected K=V`);
    const key = arg.slice(0, eq);
    const raw = arg.slice(eq + 1);
    entries.push([
      key,
      raw === '-' ? await ctx.readStdin() : raw.startsWith('@') ? await ctx.readFile(raw.slice(1)) : raw,
    ]);
  }
  return Object.fromEntries(entries);
}

function jsonObject(text: string, source: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`failed to parse JSON from ${source}: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${source} must hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** `k=v` pairs of a repeatable flag (`-metadata=team=ops`, `-options=version=2`). */
export function parsePairs(pairs: string[], flagName: string): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  const entries: [string, string][] = [];
  for (const p of pairs) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new UsageError(`-${flagName} takes K=V, got "${p}"`);
    entries.push([p.slice(0, eq), p.slice(eq + 1)]);
  }
  return Object.fromEntries(entries);
}

/** A non-negative integer flag value, or undefined when not given. */
export function intFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`-${name} must be a non-negative integer, got "${value}"`);
  return Number(value);
}
