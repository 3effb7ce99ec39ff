/**
 * Key objects made from stored key text, by that text. Making one (parsing PKCS#8, importing an
 * AEAD key) costs a request more than its own operation on a small input, so each request reusing
 * the object keeps the engine near the cost of the bare operation. Bounded: past `limit` entries
 * the oldest goes first.
 */
export const KEY_CACHE_LIMIT = 1024;

export function boundedCache<T>(limit = KEY_CACHE_LIMIT) {
  const entries = new Map<string, T>();
  return (id: string, make: () => T): T => {
    const found = entries.get(id);
    if (found) return found;
    const made = make();
    if (entries.size >= limit) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    entries.set(id, made);
    return made;
  };
}
