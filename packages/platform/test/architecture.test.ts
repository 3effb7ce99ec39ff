import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph } from '@ward/base/testing';

// Issue 30: no package has an import cycle. Read from the TypeScript sources, so
// `import type` counts too.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const graph = importGraph(SRC);

describe('architecture of the platform', () => {
  it('has no import cycle', () => {
    assert.deepEqual(importCycles(graph), []);
  });
});
