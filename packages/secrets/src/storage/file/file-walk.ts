import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareCodePoints } from '../code-point-order.js';
import type { StorageEntry } from '../storage.js';
import { listedName } from './file-layout.js';

/** The keys (`x`) and folders (`x/`) directly in `dir`, in key order; `[]` when there is no such folder. */
export async function listDir(dir: string): Promise<string[]> {
  const children = await namedChildren(dir);
  return children.map((c) => c.listed);
}

/** Every key under `dir` with its value, in key order, one file read at a time. */
export async function* walkInKeyOrder(dir: string, keyPrefix: string): AsyncGenerator<StorageEntry> {
  for (const child of await namedChildren(dir)) {
    if (child.isDirectory) yield* walkInKeyOrder(join(dir, child.entry), keyPrefix + child.listed);
    else yield { key: keyPrefix + child.listed, value: new Uint8Array(await readFile(join(dir, child.entry))) };
  }
}

interface Child {
  entry: string;
  listed: string;
  isDirectory: boolean;
}

/**
 * Sorting a folder as `x/` against a key `x-` or `x` orders it exactly as all its keys would sort:
 * they share `x/` and differ from the others at or before the `/`.
 */
async function namedChildren(dir: string): Promise<Child[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw err;
  }
  const children: Child[] = [];
  for (const e of entries) {
    const listed = listedName(e.name, e.isDirectory());
    if (listed !== undefined) children.push({ entry: e.name, listed, isDirectory: e.isDirectory() });
  }
  return children.sort((a, b) => compareCodePoints(a.listed, b.listed));
}
