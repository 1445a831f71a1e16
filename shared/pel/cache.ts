/** A bounded least-recently-used cache for compiled expressions, cheap on the hot path. */

export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; stamp: number }>();
  private clock = 0;

  constructor(private readonly capacity: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Refresh the order only when the entry has aged by half the capacity: LRU enough, without a
    // delete and re-insert on every hit.
    if (this.clock - entry.stamp > this.capacity >> 1) {
      this.entries.delete(key);
      entry.stamp = ++this.clock;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, stamp: ++this.clock });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
