/**
 * Whether `path` (relative to the mount) is in a list of special-path globs: an entry
 * matches exactly, or as a prefix when it ends in `*` (`login/*`); a `+` segment matches any
 * one segment, as established (`issuer/+/pem`).
 */
export function matchesSpecialPath(globs: readonly string[] | undefined, path: string): boolean {
  if (!globs) return false;
  for (const glob of globs) {
    if (
      glob.includes('+')
        ? matchesSegments(glob, path)
        : glob.endsWith('*')
          ? path.startsWith(glob.slice(0, -1))
          : path === glob
    )
      return true;
  }
  return false;
}

function matchesSegments(glob: string, path: string): boolean {
  const want = glob.split('/');
  const got = path.split('/');
  for (let i = 0; i < want.length; i++) {
    const part = want[i] ?? '';
    const value = got[i];
    if (value === undefined) return false;
    const isLast = i === want.length - 1;
    if (isLast && part.endsWith('*')) return value.startsWith(part.slice(0, -1));
    if (part === '+' ? value === '' : part !== value) return false;
  }
  return got.length === want.length;
}
