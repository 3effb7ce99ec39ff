import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DueHeap } from './due-heap.js';

describe('DueHeap', () => {
  it('pops in due order through pushes, moves and removals (against a sorted array)', () => {
    const heap = new DueHeap<{ id: number; dueMs: number; heapIndex: number }>();
    const live = new Map<number, { id: number; dueMs: number; heapIndex: number }>();
    let seed = 12345;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const item = { id: i, dueMs: rand(500), heapIndex: -1 };
      heap.push(item);
      live.set(i, item);
      if (i % 3 === 0) heap.set(item, rand(500));
      if (i % 7 === 0) {
        const victim = live.get(rand(i + 1));
        if (victim) {
          heap.remove(victim);
          heap.remove(victim);
          live.delete(victim.id);
        }
      }
    }
    assert.equal(heap.size, live.size);
    const expected = [...live.values()].map((x) => x.dueMs).sort((a, b) => a - b);
    const popped: number[] = [];
    for (let item = heap.pop(); item; item = heap.pop()) {
      assert.equal(item.heapIndex, -1);
      popped.push(item.dueMs);
    }
    assert.deepEqual(popped, expected);
  });
});
