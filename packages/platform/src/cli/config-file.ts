import { readFile } from 'node:fs/promises';
import { CliError } from './exit-error.js';

/** The keys a `--config` file may set, and the flag each stands for (a flag given too wins). */
export const CONFIG_KEYS = new Map([
  ['listen', 'listen'],
  ['db', 'db'],
  ['database_url', 'database-url'],
  ['edition', 'edition'],
  ['tls_cert_file', 'tls-cert'],
  ['tls_key_file', 'tls-key'],
  ['log_level', 'log-level'],
  ['rate_limit', 'rate-limit'],
] as const);

export type ConfigFlag = typeof CONFIG_KEYS extends Map<string, infer F> ? F : never;

/**
 * Reads an HCL (or JSON) file of top-level `key = value` settings, e.g.
 * `database_url = "postgres://ward@db:5432/ward"`, as flag values. An unknown key, a block or
 * a value that is not a string or number is a usage error naming the key: a typo must not be
 * ignored silently.
 */
export async function readConfigFile(path: string): Promise<Map<ConfigFlag, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read the config file: ${(err as Error).message}`, 2);
  }
  let parsed: Record<string, unknown>;
  try {
    // HashiCorp's own HCL parser compiled to WebAssembly; loaded only when a file is given.
    const { parse } = await import('@cdktf/hcl2json');
    parsed = (await parse(path, text)) as Record<string, unknown>;
  } catch (err) {
    throw new CliError(`${path}: ${(err as Error).message}`, 2);
  }
  const out = new Map<ConfigFlag, string>();
  for (const [key, value] of Object.entries(parsed)) {
    const flag = CONFIG_KEYS.get(key as never);
    if (!flag) throw new CliError(`${path}: unknown key "${key}" (known: ${[...CONFIG_KEYS.keys()].join(', ')})`, 2);
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new CliError(`${path}: "${key}" must be a string or a number`, 2);
    }
    out.set(flag, String(value));
  }
  return out;
}
