/**
 * Where `storage "file"` keeps each key, as the established file backend does: every `/` of a key
 * is a directory, and its last part is a file named `_` + that part (`logical/abc/config` is
 * `logical/abc/_config`), so a key and a folder of the same name never meet.
 *
 * Unlike the established layout, a directory whose part starts with `_`, `~` or `.` (or is empty)
 * gets a `~` in front, so directories never look like keys, and names starting with `.` are free
 * for the backend's own temporary files, which listings skip.
 */

/** The relative file path of `key`: its directory parts and its file name. */
export interface KeyLocation {
  /** Escaped directory names from the tree's root (empty for a top-level key). */
  dirs: string[];
  /** `_` + the key's last part. */
  file: string;
}

export function keyLocation(key: string): KeyLocation {
  const parts = key.split('/');
  const last = parts.pop() ?? '';
  return { dirs: parts.map(dirName), file: `_${last}` };
}

/** The escaped directories of a listing prefix (`''` or ending in `/`): `a/b/` is `['a', 'b']`. */
export function prefixDirs(prefix: string): string[] {
  return prefix === '' ? [] : prefix.slice(0, -1).split('/').map(dirName);
}

/** What a directory entry is in a listing: a key (`x`), a folder (`x/`), or nothing of ours (`undefined`). */
export function listedName(entry: string, isDirectory: boolean): string | undefined {
  if (entry.startsWith('.')) return undefined;
  if (isDirectory) return entry.startsWith('_') ? undefined : `${partOfDir(entry)}/`;
  return entry.startsWith('_') ? entry.slice(1) : undefined;
}

function dirName(part: string): string {
  return part === '' || /^[_~.]/.test(part) ? `~${part}` : part;
}

function partOfDir(name: string): string {
  return name.startsWith('~') ? name.slice(1) : name;
}
