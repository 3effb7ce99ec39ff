import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph } from './import-graph.js';

describe('importGraph / importCycles', () => {
  it('finds a cycle through a type import, and none once it is broken', async () => {
    const src = await mkdtemp(join(tmpdir(), 'ward-import-graph-'));
    await mkdir(join(src, 'a'));
    await writeFile(join(src, 'a/one.ts'), "import type { Two } from '../two.js';\nexport type One = Two;\n");
    await writeFile(join(src, 'two.ts'), "export { type One } from './a/one.js';\nexport type Two = 1;\n");
    assert.deepEqual(importCycles(importGraph(src)), ['a/one.ts -> two.ts -> a/one.ts']);
    await writeFile(join(src, 'two.ts'), 'export type Two = 1;\n');
    assert.deepEqual(importCycles(importGraph(src)), []);
  });

  it('base itself has no import cycle', () => {
    // Compiled to packages/base/dist/, beside src/.
    const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
    assert.deepEqual(importCycles(importGraph(src)), []);
  });

  it('follows an import of x.js to x.tsx (the web UI)', async () => {
    const src = await mkdtemp(join(tmpdir(), 'ward-import-graph-'));
    await writeFile(join(src, 'app.tsx'), "import { Link } from './link.js';\nexport const App = Link;\n");
    await writeFile(join(src, 'link.tsx'), "import { App } from './app.js';\nexport const Link = App;\n");
    assert.deepEqual(importCycles(importGraph(src)), ['app.tsx -> link.tsx -> app.tsx']);
  });

  it('no package of the monorepo has an import cycle (every packages/*/src, a new one too)', () => {
    // Compiled to packages/base/dist/: packages/ is two levels up.
    const packages = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
    const names = readdirSync(packages).filter((p) => existsSync(join(packages, p, 'src')));
    for (const expected of ['agent', 'base', 'platform', 'secrets', 'secrets-client', 'ui']) {
      assert.ok(names.includes(expected), `${expected} is checked`);
    }
    const cycles = names.flatMap((p) => importCycles(importGraph(join(packages, p, 'src'))).map((c) => `${p}: ${c}`));
    assert.deepEqual(cycles, []);
  });
});
