import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph } from '@ward/base/testing';

// Issue 14: `core/` imports no backend (the composition root hands it factories). Issue 30: no
// file of the package is in an import cycle (tests and test harnesses aside). Read from the
// TypeScript sources, so `import type` counts too.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const FORBIDDEN_FROM_CORE = ['auth/', 'identity/', 'sys/', 'engines/', 'http/', 'server/', 'cli/'];

const graph = importGraph(SRC, 'core');

describe('architecture of the secrets server', () => {
  it('core/ imports nothing from the backends, the HTTP layer or the server', () => {
    const offending = [...graph].flatMap(([file, imports]) =>
      imports.filter((i) => FORBIDDEN_FROM_CORE.some((p) => i.startsWith(p))).map((i) => `${file} -> ${i}`),
    );
    assert.deepEqual(offending, []);
  });

  it('the package has no import cycle', () => {
    assert.deepEqual(importCycles(importGraph(SRC)), []);
  });
});
