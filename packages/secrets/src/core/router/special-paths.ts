/**
 * Whether `path` (relative to the mount) is in a list of special-path globs: an entry
 * matches exactly, or as a prefix when it ends in `*` (`login/*`).
 */
export function matchesSpecialPath(globs: readonly string[] | undefined, path: string): boolean {
  if (!globs) return false;
  for (const glob of globs) {
    if (glob.endsWith('*') ? path.startsWith(glob.slice(0, -1)) : path === glob) return true;
  }
  return false;
}
