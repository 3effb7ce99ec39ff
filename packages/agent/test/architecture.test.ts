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

  it('handlers, RPC methods and forwarding reach gossip, Raft and the server list only through services.ts', () => {
    // The concrete parts (built once by agent.ts) are what a handler must not hold: it gets
    // the narrow `GossipPool`, `Consensus` and `KnownServers` views instead.
    const concrete = ['agent.ts', 'gossip/memberlist.ts', 'raft/raft-node.ts', 'client/server-list.ts'];
    const readers = /^(http\/|rpc\/|forward\.ts|stats\.ts|self\.ts|status\.ts|members\.ts)/;
    const offending = [...graph]
      .filter(([file]) => readers.test(file))
      .flatMap(([file, imports]) => imports.filter((i) => concrete.includes(i)).map((i) => `${file} -> ${i}`));
    assert.deepEqual(offending, []);
  });
});
