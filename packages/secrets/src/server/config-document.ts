import { readFile } from 'node:fs/promises';
import { HclSyntaxError, isLogFormat, LOG_FORMATS, LOG_LEVELS, type LogLevel, parseGoBool, parseHcl } from '@ward/base';
import { closest, distance } from 'fastest-levenshtein';
import { InvalidRequestError } from '../logical/errors.js';
import type { ConfigSource } from './config-problems.js';

/** One block of a parsed configuration document. */
export type Block = Record<string, unknown>;

/**
 * Reads an HCL1 (or JSON) file as the established server does: labelled blocks become maps of
 * arrays, blocks arrays, and every key keeps its line (in `source.doc`) for messages about it.
 */
export async function readConfigFile(file: string): Promise<{ doc: Block; text: string; source: ConfigSource }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InvalidRequestError(`error loading configuration from ${file}: ${(err as Error).message}`);
  }
  try {
    const parsed = parseHcl(text);
    return { doc: parsed.body, text, source: { file, text, doc: parsed } };
  } catch (err) {
    if (!(err instanceof HclSyntaxError)) throw err;
    throw new InvalidRequestError(`error loading configuration from ${file}: ${err.message}`);
  }
}

/**
 * `log_level` (any case; default info) and `log_format` (`standard`, the default, or `json`);
 * any other value is refused naming the key and its line, as the server and the proxy share them.
 */
export function logSettings(doc: Block, source?: ConfigSource): { logLevel: LogLevel; logJson: boolean } {
  const logLevel = String(doc.log_level ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new InvalidRequestError(
      `${keyLocation(source, doc, 'log_level')}log_level must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(doc.log_level)}`,
    );
  }
  const logFormat = doc.log_format ?? 'standard';
  if (!isLogFormat(logFormat)) {
    throw new InvalidRequestError(
      `${keyLocation(source, doc, 'log_format')}log_format must be ${LOG_FORMATS.map((f) => `"${f}"`).join(' or ')}, got ${JSON.stringify(logFormat)}`,
    );
  }
  return { logLevel: logLevel as LogLevel, logJson: logFormat === 'json' };
}

/** `file:line: ` where `key` is written in `block`, for an error about it; empty when there is no file. */
export function keyLocation(source: ConfigSource | undefined, block: object, key: string): string {
  if (!source) return '';
  const line = source.doc?.lineOf(block, key);
  return `${source.file}${line ? `:${line}` : ''}: `;
}

/**
 * A check that refuses any key of a block but the known ones, naming the file and line of the
 * first unknown key and the nearest known one (the proxy's configuration uses it).
 */
export function unknownKeyCheck(source?: ConfigSource) {
  return (block: Block, known: readonly string[], where: string): void => {
    for (const key of Object.keys(block)) {
      if (known.includes(key)) continue;
      throw new InvalidRequestError(
        `${keyLocation(source, block, key)}unknown key "${key}" ${where}${nearest(key, known)}`,
      );
    }
  };
}

/** `; did you mean "x"?` for a key one or two edits away from a known one. */
export function nearest(key: string, known: readonly string[]): string {
  const best = closest(key, [...known]);
  return best && distance(key, best) <= 2 ? `; did you mean "${best}"?` : '';
}

/**
 * A configuration boolean as the established server reads one (its parseutil.ParseBool): bare `true`,
 * `0`/`1`, or a string in Go's strconv.ParseBool words (`"true"`, `"T"`, `"0"`…); absent or `""` is false.
 * Anything else is refused, naming `key`.
 */
export function parseBool(value: unknown, key: string): boolean {
  if (value === undefined || value === false || value === 0 || value === '') return false;
  if (value === true || value === 1) return true;
  const word = typeof value === 'string' ? parseGoBool(value) : undefined;
  if (word === undefined) throw new InvalidRequestError(`${key} must be true or false, got ${JSON.stringify(value)}`);
  return word;
}

/** `storage "sqlite" { … }` parses to `{ sqlite: [{ … }] }`; flatten that to `[type, body]` pairs. */
export function labelled(value: unknown, what: string): Array<[string, Block]> {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidRequestError(`invalid ${what} block: write ${what} "<type>" { … }`);
  }
  const out: Array<[string, Block]> = [];
  for (const [label, bodies] of Object.entries(value)) {
    for (const body of Array.isArray(bodies) ? bodies : [bodies]) {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new InvalidRequestError(`invalid ${what} "${label}" block`);
      }
      out.push([label, body as Block]);
    }
  }
  return out;
}

/** An unlabelled block (`telemetry { … }`, `vault { … }`) parses to an array of bodies. */
export function blocks(value: unknown, what: string): Block[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  for (const body of list) {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new InvalidRequestError(`invalid ${what} block`);
  }
  return list as Block[];
}
