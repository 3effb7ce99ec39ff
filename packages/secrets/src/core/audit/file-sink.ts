import { appendFile, chmod, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidRequestError } from '../../logical/errors.js';
import type { AuditSink } from './audit-sink.js';

/** `mode` when the options give none: only the server's user may read the log. */
const DEFAULT_MODE = '0600';

/**
 * Options of a `file` device: `file_path` (or `stdout`, `discard`; `path` is its legacy name,
 * which hvac's examples still send) and `mode` (octal; `0000` leaves it alone).
 */
export function fileSinkSettings(options: Record<string, string>): { path: string; mode: number } {
  const path = options.file_path || options.path || '';
  if (path === '') throw new InvalidRequestError('file_path is required');
  const modeText = options.mode ?? DEFAULT_MODE;
  const mode = /^[0-7]{1,4}$/.test(modeText) ? Number.parseInt(modeText, 8) : Number.NaN;
  if (Number.isNaN(mode) || mode > 0o777)
    throw new InvalidRequestError(`invalid mode "${modeText}": want octal, e.g. 0600`);
  return { path, mode };
}

/**
 * A sink appending to a file. Each line is appended with its own open (`O_APPEND`), so a log
 * rotated or removed from under the server is simply created again on the next entry, and a
 * file that has become unwritable fails that entry instead of writing to a stale descriptor.
 */
export function createFileSink(settings: { path: string; mode: number }): AuditSink {
  const { path, mode } = settings;
  if (path === 'discard') return { write: async () => {}, close: async () => {} };
  if (path === 'stdout') {
    return {
      write: (line) => new Promise((resolve, reject) => process.stdout.write(line, (e) => (e ? reject(e) : resolve()))),
      close: async () => {},
    };
  }
  return {
    write: (line) => appendFile(path, line, { mode: mode || 0o600 }),
    close: async () => {},
  };
}

/**
 * Creates the file (and its directory) when a device is enabled and applies `mode`, so a
 * path the server cannot write is refused then rather than failing every request after.
 */
export async function prepareLogFile(settings: { path: string; mode: number }): Promise<void> {
  const { path, mode } = settings;
  if (path === 'discard' || path === 'stdout') return;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const handle = await open(path, 'a', mode || 0o600);
    await handle.close();
    if (mode !== 0) await chmod(path, mode);
  } catch (err) {
    throw new InvalidRequestError(
      `sanity check failed; unable to open "${path}" for writing: ${(err as Error).message}`,
    );
  }
}
