/** An item the heap orders by `dueMs`; `heapIndex` is the heap's bookkeeping (-1 when not queued). */
export interface HeapItem {
  dueMs: number;
  heapIndex: number;
}

/**
 * A binary min-heap on `dueMs` that knows where each item sits, so an item can be removed or
 * moved in O(log n) when a lease is revoked or renewed. Equal due times come out in no
 * particular order.
 */
export class DueHeap<T extends HeapItem> {
  readonly #items: T[] = [];

  get size(): number {
    return this.#items.length;
  }

  /** The earliest item, left in place. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Queues `item`, which must not be queued already. */
  push(item: T): void {
    item.heapIndex = this.#items.length;
    this.#items.push(item);
    this.#up(item.heapIndex);
  }

  /** Takes the earliest item out. */
  pop(): T | undefined {
    const first = this.#items[0];
    if (first) this.remove(first);
    return first;
  }

  /** Takes `item` out wherever it is; an item not queued is ignored. */
  remove(item: T): void {
    const index = item.heapIndex;
    if (index < 0 || this.#items[index] !== item) return;
    const last = this.#items.pop() as T;
    item.heapIndex = -1;
    if (last === item) return;
    this.#items[index] = last;
    last.heapIndex = index;
    this.#down(index);
    this.#up(last.heapIndex);
  }

  /** Moves `item` to `dueMs`, queueing it if it was not. */
  set(item: T, dueMs: number): void {
    this.remove(item);
    item.dueMs = dueMs;
    this.push(item);
  }

  /** Forgets every item. */
  clear(): void {
    for (const item of this.#items) item.heapIndex = -1;
    this.#items.length = 0;
  }

  #up(index: number): void {
    const items = this.#items;
    const item = items[index] as T;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = items[parentIndex] as T;
      if (parent.dueMs <= item.dueMs) break;
      items[index] = parent;
      parent.heapIndex = index;
      index = parentIndex;
    }
    items[index] = item;
    item.heapIndex = index;
  }

  #down(index: number): void {
    const items = this.#items;
    const item = items[index] as T;
    const half = items.length >> 1;
    while (index < half) {
      let childIndex = 2 * index + 1;
      let child = items[childIndex] as T;
      const right = items[childIndex + 1];
      if (right && right.dueMs < child.dueMs) {
        childIndex++;
        child = right;
      }
      if (item.dueMs <= child.dueMs) break;
      items[index] = child;
      child.heapIndex = index;
      index = childIndex;
    }
    items[index] = item;
    item.heapIndex = index;
  }
}
