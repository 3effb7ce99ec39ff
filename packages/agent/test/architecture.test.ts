import assert from 'node:assert/strict';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph } from '@ward/base/testing';

// Issue 30 point 1: handlers, RPC methods and forwarding see the agent through narrow
// views (`services.ts`), so the agent's sources have no import cycle. Read from the
// TypeScript sources, so `import type` counts too.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const graph = importGraph(SRC);

describe('architecture of the agent', () => {
  it('has no import cycle', () => {
    assert.deepEqual(importCycles(graph), []);
  });

  it('no handler, RPC method table or forwarding code imports the Agent class', () => {
    const offending = [...graph]
      .filter(([file]) => /^(http\/|rpc\/|forward\.ts)/.test(file))
      .filter(([, imports]) => imports.includes('agent.ts'))
      .map(([file]) => file);
    assert.deepEqual(offending, []);
  });
});
