import assert from 'node:assert/strict';
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
});
