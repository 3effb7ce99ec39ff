import { parseGoBool } from '@ward/base';
import { InvalidRequestError } from '../../logical/errors.js';
import type { EntryFormat } from './audit-entry.js';
import { hmacHasher, rawHasher } from './audit-hash.js';
import type { AuditSink } from './audit-sink.js';
import { createFileSink, fileSinkSettings, prepareLogFile } from './file-sink.js';
import { createSocketSink, socketSinkSettings } from './socket-sink.js';

/** One enabled device as the audit table stores it (behind the barrier). */
export interface AuditTableEntry {
  /** Ends in `/`: `file/`. */
  path: string;
  type: string;
  description: string;
  /** As the operator gave them; defaults are applied when the device opens. */
  options: Record<string, string>;
  local: boolean;
  uuid: string;
  /** Hex HMAC key of this device: its digests match no other device's, and it dies with the device. */
  salt: string;
}

/** A device ready to write. */
export interface OpenDevice {
  entry: AuditTableEntry;
  sink: AuditSink;
  format: EntryFormat;
  /** Written before each line (`prefix` option). */
  prefix: string;
}

/** Device types by name; each checks its own options. */
const SINKS = new Map<string, (options: Record<string, string>, isNew: boolean) => Promise<AuditSink>>([
  [
    'file',
    async (options, isNew) => {
      const settings = fileSinkSettings(options);
      if (isNew) await prepareLogFile(settings);
      return createFileSink(settings);
    },
  ],
  ['socket', async (options) => createSocketSink(socketSinkSettings(options))],
]);

/**
 * Opens a device from its table entry. `isNew` is set when the operator is enabling it: only
 * then is a log file created, so a bad path is refused instead of failing every request.
 */
export async function openDevice(entry: AuditTableEntry, isNew: boolean): Promise<OpenDevice> {
  const makeSink = SINKS.get(entry.type);
  if (!makeSink) throw new InvalidRequestError(`unknown backend type: "${entry.type}"`);
  const o = entry.options;
  const format = o.format || 'json';
  if (format !== 'json') throw new InvalidRequestError(`unknown format type "${format}": only json is supported`);
  const logRaw = bool(o, 'log_raw', false);
  const deviceFormat: EntryFormat = {
    hash: logRaw ? rawHasher : hmacHasher(Buffer.from(entry.salt, 'hex')),
    hmacAccessor: bool(o, 'hmac_accessor', true),
    elideListResponses: bool(o, 'elide_list_responses', false),
  };
  return { entry, format: deviceFormat, prefix: o.prefix ?? '', sink: await makeSink(o, isNew) };
}

/** Option values are strings; booleans read the way established servers parse them. */
function bool(options: Record<string, string>, name: string, fallback: boolean): boolean {
  const text = options[name];
  if (text === undefined || text === '') return fallback;
  const value = parseGoBool(text);
  if (value !== undefined) return value;
  throw new InvalidRequestError(`unable to parse '${name}': "${text}" is not a boolean`);
}
