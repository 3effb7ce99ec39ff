import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { StorageFullError } from '../../logical/errors.js';

/**
 * Makes a directory's entries durable (a created, renamed or removed name). Without it a crash
 * can lose a rename that `fsync` of the file alone does not cover.
 */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Creates `dir` and its missing parents (mode 0700), each new name made durable in its parent. */
export async function makeDirDurably(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  // Every directory from the first created one's parent down to `dir`'s parent gained an entry.
  const created = relative(dirname(first), dir).split(sep);
  let at = dirname(first);
  for (const part of created) {
    await syncDir(at);
    at = join(at, part);
  }
}

/**
 * Replaces `file` with `bytes` so that a crash leaves either the old content or the new, never a
 * mix: written to `temp` (in the same directory), flushed, renamed over `file`, directory flushed.
 */
export async function writeFileDurably(file: string, temp: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(temp).catch(() => {});
    // A full disk is the caller's 507, not an internal error (issue 28); nothing was replaced.
    throw (err as NodeJS.ErrnoException).code === 'ENOSPC' ? new StorageFullError({ cause: err }) : err;
  }
  await handle.close();
  await rename(temp, file);
  await syncDir(dirname(file));
}

/** Removes `file` durably; a missing file is not an error. Returns whether it was there. */
export async function removeFileDurably(file: string): Promise<boolean> {
  try {
    await unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  await syncDir(dirname(file));
  return true;
}
