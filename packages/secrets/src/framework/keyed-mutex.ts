/**
 * Serialises async work per key. Storage calls are async, so two writes to the same
 * secret could otherwise both read version N and both write version N+1.
 */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier `run` on the same key has settled. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    try {
      return await result;
    } finally {
      // Forget the key once nobody queued behind us, so the map does not grow without bound.
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
