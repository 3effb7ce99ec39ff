/**
 * Sets `obj[key] = value` as an own data property whatever `key` is. A plain assignment
 * with key `__proto__` would replace the object's prototype instead, losing the entry
 * (and letting input change what the object inherits).
 */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
