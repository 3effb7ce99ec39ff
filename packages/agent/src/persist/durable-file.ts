/** Crash-safe file writes for what the agent keeps on disk. @module */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Replaces `path` with `text` so that a crash leaves either the old or the new content,
 * never a torn file: write a temporary file, fsync it, rename it over, fsync the folder.
 * Synchronous on purpose: callers (a Raft vote, an ACL write) must not answer before
 * the state is on disk, and these writes are rare and small.
 */
export function writeDurable(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/** The JSON in `path`, or undefined when the file does not exist yet. */
export function readDurableJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text);
}
