/**
 * The in-memory cache: bounded in entries and bytes over all scopes, least recently used evicted first,
 * expired entries dropped when met and by `clear`. One instance only; see `CacheStore` for a shared one.
 */
import type { CacheConfig } from './cache-config';
import { sizeWithin, type CachedValue, type CacheStore } from './cache-store';

interface Entry {
  value: CachedValue;
  size: number;
  expiresAt: number;
}

/** Scope and key in one map key; the scope never holds a NUL. */
const slot = (scope: string, key: string) => `${scope}\u0000${key}`;

export class MemoryCacheStore implements CacheStore {
  /** Insertion order is recency: a read moves the entry to the end. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly bounds: CacheConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** Entries and bytes held now (for tests and `cache.info`-like views). */
  stats(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  async put(scope: string, key: string, value: CachedValue, ttlMillis: number): Promise<void> {
    const size = sizeWithin(value, this.bounds.maxBytes);
    this.drop(slot(scope, key));
    this.entries.set(slot(scope, key), { value, size, expiresAt: this.now() + ttlMillis });
    this.bytes += size;
    this.evict();
  }

  async get(scope: string, key: string): Promise<CachedValue | undefined> {
    const id = slot(scope, key);
    const entry = this.live(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value;
  }

  async has(scope: string, key: string): Promise<boolean> {
    return this.live(slot(scope, key)) !== undefined;
  }

  async remove(scope: string, key: string): Promise<boolean> {
    return this.drop(slot(scope, key));
  }

  async clear(scope: string, options: { all: boolean }): Promise<number> {
    const prefix = `${scope}\u0000`;
    const now = this.now();
    let removed = 0;
    for (const [id, entry] of this.entries) {
      if (id.startsWith(prefix) && (options.all || entry.expiresAt <= now)) {
        this.drop(id);
        removed++;
      }
    }
    return removed;
  }

  private live(id: string): Entry | undefined {
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt <= this.now()) {
      this.drop(id);
      return undefined;
    }
    return entry;
  }

  private drop(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.bytes -= entry.size;
    return true;
  }

  /** Removes least recently used entries until both bounds hold. */
  private evict(): void {
    for (const id of this.entries.keys()) {
      if (this.entries.size <= this.bounds.maxEntries && this.bytes <= this.bounds.maxBytes) return;
      this.drop(id);
    }
  }
}
