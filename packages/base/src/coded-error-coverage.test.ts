import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

// Issue 30 point 4: one coded error base. Every error class of every package extends CodedError
// (directly or through LogicalError, AgentError, PlatformError, ClientError, …), so each binary
// maps errors to a status or an exit code by `code`, never by message.
const PACKAGES = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHECKED = readdirSync(PACKAGES).filter((name) =>
  statSync(join(PACKAGES, name, 'src'), { throwIfNoEntry: false }),
);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Class name → the classes it extends (a name may be declared in more than one package), and where. */
function classDeclarations(): Map<string, { bases: Set<string>; files: string[] }> {
  const classes = new Map<string, { bases: Set<string>; files: string[] }>();
  for (const pkg of CHECKED) {
    for (const file of sources(join(PACKAGES, pkg, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+([\w.]+)/g)) {
        const [, name = '', base = ''] = m;
        const entry = classes.get(name) ?? { bases: new Set(), files: [] };
        entry.bases.add(base);
        entry.files.push(relative(PACKAGES, file));
        classes.set(name, entry);
      }
    }
  }
  return classes;
}

describe('coded errors across the packages', () => {
  it('every error class extends CodedError', () => {
    const classes = classDeclarations();
    /** Whether the chain from `name` reaches an error base other than CodedError. */
    const isUncodedError = (name: string, seen: Set<string>): boolean => {
      if (name === 'CodedError') return false;
      const entry = classes.get(name);
      if (!entry) return /Error$/.test(name); // Error, TypeError or a library's error class
      if (seen.has(name)) return false;
      seen.add(name);
      return [...entry.bases].some((base) => isUncodedError(base, seen));
    };
    const offending = [...classes]
      .filter(([name]) => name !== 'CodedError' && isUncodedError(name, new Set()))
      .map(([name, { files }]) => `${name} (${files.join(', ')})`);
    assert.deepEqual(offending, []);
  });

  it('finds the error classes it checks', () => {
    // Guards the scan itself: if the pattern stopped matching, the test above would pass on nothing.
    const classes = classDeclarations();
    assert.ok(CHECKED.includes('secrets') && CHECKED.includes('ui'), CHECKED.join(', '));
    for (const name of ['LogicalError', 'AgentError', 'PlatformError', 'ClientError', 'UsageError', 'CliError']) {
      assert.ok(classes.get(name)?.bases.has('CodedError'), name);
    }
  });
});
