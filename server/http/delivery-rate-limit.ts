/**
 * Counting limits of the public download page, per instance: requests per client address per minute, and
 * wrong passwords per link per quarter hour. Bounded: past `maxKeys` the oldest window is forgotten.
 */
export class WindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  /** Counts one; false once the key is past its limit in the current window. */
  hit(key: string, now = Date.now()): boolean {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.delete(key);
      if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    return window.count <= this.limit;
  }

  /** Whether the key is past its limit, without counting. */
  blocked(key: string, now = Date.now()): boolean {
    const window = this.windows.get(key);
    return window !== undefined && now - window.start < this.windowMs && window.count >= this.limit;
  }
}
