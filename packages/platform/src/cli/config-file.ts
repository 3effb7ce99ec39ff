import { readFile } from 'node:fs/promises';
import { CliError, configKeyLine } from '@ward/base';

/** The keys a `--config` file may set, and the flag each stands for (a flag given too wins). */
export const CONFIG_KEYS = new Map([
  ['listen', 'listen'],
  ['db', 'db'],
  ['database_url', 'database-url'],
  ['edition', 'edition'],
  ['tls_cert_file', 'tls-cert'],
  ['tls_key_file', 'tls-key'],
  ['log_level', 'log-level'],
  ['log_format', 'log-format'],
  ['rate_limit', 'rate-limit'],
] as const);

export type ConfigFlag = typeof CONFIG_KEYS extends Map<string, infer F> ? F : never;

/** The settings a config file gave, by the flag each stands for, and where each was written. */
export interface ConfigSettings {
  values: Map<ConfigFlag, string>;
  /** `file:line: key` of the setting behind `flag`, for an error about its value. */
  where(flag: ConfigFlag): string;
}

/**
 * Reads an HCL (or JSON) file of top-level `key = value` settings, e.g.
 * `database_url = "postgres://ward@db:5432/ward"`, as flag values. An unreadable file, an
 * unknown key, a block or a value that is not a string or number is a `CliError` with exit 1
 * naming the key and its line (a bad file is not a usage error, as in the established tools):
 * a typo must not be ignored silently.
 */
export async function readConfigFile(path: string): Promise<ConfigSettings> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read the config file: ${(err as Error).message}`);
  }
  let parsed: Record<string, unknown>;
  try {
    // HashiCorp's own HCL parser compiled to WebAssembly; loaded only when a file is given.
    const { parse } = await import('@cdktf/hcl2json');
    parsed = (await parse(path, text)) as Record<string, unknown>;
  } catch (err) {
    throw new CliError(`${path}: ${(err as Error).message}`);
  }
  const at = (key: string) => `${path}${configKeyLine(text, key) ? `:${configKeyLine(text, key)}` : ''}`;
  const values = new Map<ConfigFlag, string>();
  const keys = new Map<ConfigFlag, string>();
  for (const [key, value] of Object.entries(parsed)) {
    const flag = CONFIG_KEYS.get(key as never);
    if (!flag) throw new CliError(`${at(key)}: unknown key "${key}" (known: ${[...CONFIG_KEYS.keys()].join(', ')})`);
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new CliError(`${at(key)}: ${key} must be a string or a number`);
    }
    values.set(flag, String(value));
    keys.set(flag, key);
  }
  return {
    values,
    where: (flag) => {
      const key = keys.get(flag) ?? flag;
      return `${at(key)}: ${key}`;
    },
  };
}
