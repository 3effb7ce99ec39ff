import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LogSink } from '@ward/base';
import { InvalidRequestError } from '../logical/errors.js';

/** A log sink writing each line to stderr and, appended, to `log_file`. */
export interface FileLogSink extends LogSink {
  close(): Promise<void>;
}

/** Opens `path` for appending (owner read-write only: log lines can name paths and accessors). */
export function openLogFile(path: string): FileLogSink {
  try {
    mkdirSync(dirname(path), { recursive: true });
    // Opened now, so a path that cannot be written stops the start with one line.
    writeFileSync(path, '', { flag: 'a', mode: 0o600 });
  } catch (err) {
    throw new InvalidRequestError(`log_file ${path}: ${(err as Error).message}`);
  }
  const file = createWriteStream(path, { flags: 'a', mode: 0o600 });
  return {
    write(line: string) {
      process.stderr.write(line);
      file.write(line);
    },
    close: () => new Promise((resolve) => file.end(() => resolve())),
  };
}

/** Writes the process id to `pid_file` (as established: the number alone, mode 0644). */
export function writePidFile(path: string, pid: number): void {
  try {
    writeFileSync(path, `${pid}`, { mode: 0o644 });
  } catch (err) {
    throw new InvalidRequestError(`pid_file ${path}: ${(err as Error).message}`);
  }
}

export async function removePidFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
