/**
 * The cache behind `cache.*`: what any implementation offers. The built-in one is in memory
 * (`MemoryCacheStore`); a shared one (Redis, PostgreSQL) implements the same interface when several instances
 * run. Every call names a scope (the caller's tenant), so tenants never see each other's entries.
 */
import { PipeworkError } from '../../shared/errors';

/** What is kept: a value as JSON text, or bytes with their mime type and name. */
export type CachedValue =
  { kind: 'json'; text: string } | { kind: 'bytes'; data: Uint8Array; mimeType: string; name?: string };

export interface CacheStore {
  /** Stores a value for `ttlMillis`; PAYLOAD_TOO_LARGE when it alone is over the store's bound. */
  put(scope: string, key: string, value: CachedValue, ttlMillis: number): Promise<void>;
  /** The value, or undefined when there is none or it has expired. */
  get(scope: string, key: string): Promise<CachedValue | undefined>;
  has(scope: string, key: string): Promise<boolean>;
  /** Removes one entry; whether there was one. */
  remove(scope: string, key: string): Promise<boolean>;
  /** Removes the expired entries of the scope, or all of them with `all`; how many went. */
  clear(scope: string, options: { all: boolean }): Promise<number>;
}

export function sizeOf(value: CachedValue): number {
  return value.kind === 'json' ? value.text.length * 2 : value.data.byteLength;
}

/** The value's size for a `put`; PAYLOAD_TOO_LARGE when it alone is over the store's `maxBytes`. */
export function sizeWithin(value: CachedValue, maxBytes: number): number {
  const size = sizeOf(value);
  if (size > maxBytes) {
    throw new PipeworkError(
      'PAYLOAD_TOO_LARGE',
      `The value has ${size} bytes, more than the cache holds (${maxBytes}).`,
      { limitBytes: maxBytes },
    );
  }
  return size;
}
