// A bounded memo: the one shape of cache the science libraries keep (v2 peak-detector workspaces and double-dot
// classifiers in libs/characterization, recent unitary syntheses and CX translations in libs/circuits), so each is a
// named object with a capacity instead of a bare module-level Map.

/**
 * At most `capacity` values by key; making room forgets the least recently used. Only for values that are a pure
 * function of their key (or pure scratch), so a caller's result never depends on what the cache holds.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`expected a capacity that is a positive integer; got ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value held for `key` (now the most recently used), or `make(key)` stored in its place. */
  getOrCreate(key: K, make: (key: K) => V): V {
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as V;
      this.entries.delete(key); // re-inserted last: a Map iterates in insertion order, oldest first
      this.entries.set(key, value);
      return value;
    }
    const value = make(key);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
