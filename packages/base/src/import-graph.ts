import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The architecture tests' view of a package: which source file imports which, read from the
 * TypeScript sources so that `import type` counts too. One copy for every package's
 * `test/architecture.test.ts`.
 */
export type ImportGraph = ReadonlyMap<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The source file an import of `specifier` names: `x.js` is `x.ts`, or `x.tsx` where that is what exists. */
function sourceOf(file: string, specifier: string): string {
  const ts = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
  return existsSync(ts) || !existsSync(`${ts}x`) ? ts : `${ts}x`;
}

/** Relative imports of a file (static `import`/`export … from`), as paths from `src`. */
function importsOf(src: string, file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map((m) => m[1]);
  return specifiers.map((s) => relative(src, sourceOf(file, String(s))));
}

/**
 * The graph of the files under `src/under` (paths relative to `src`), without tests and test
 * harnesses (`*.test.ts`, `testing.ts`), which may import anything.
 */
export function importGraph(src: string, under = ''): ImportGraph {
  const files = sourceFiles(join(src, under)).filter((f) => !/\.test\.tsx?$/.test(f) && !f.endsWith('testing.ts'));
  return new Map(files.map((f) => [relative(src, f), importsOf(src, f)]));
}

/** Every import cycle within `graph`, each as `a.ts -> b.ts -> a.ts`. */
export function importCycles(graph: ImportGraph): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: string, stack: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...stack.slice(stack.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'visiting');
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next, [...stack, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}
