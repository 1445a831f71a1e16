/** A bounded least-recently-used cache, cheap on the hot path (compiled expressions, regexes, parsed pipelines). */

/**
 * Bounded by entries and by total weight (the callers weigh an entry by its text's length, so a few huge
 * texts cannot hold the memory that thousands of ordinary ones would).
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; stamp: number; weight: number }>();
  private clock = 0;
  private weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxWeight = Infinity,
  ) {}

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

  /** Stores a value; one heavier than a quarter of `maxWeight` is not kept at all. */
  set(key: string, value: V, weight = key.length): void {
    this.delete(key);
    if (weight > this.maxWeight / 4) return;
    this.entries.set(key, { value, stamp: ++this.clock, weight });
    this.weight += weight;
    while (this.entries.size > this.capacity || this.weight > this.maxWeight) {
      this.delete(this.entries.keys().next().value as string);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The total weight of the entries kept. */
  get totalWeight(): number {
    return this.weight;
  }

  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
