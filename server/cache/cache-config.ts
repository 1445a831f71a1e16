/** Bounds of the in-memory cache (`cache.*`). */

import { positiveIntFrom } from '../config-env';

export interface CacheConfig {
  /** Most entries held at once, over all tenants (`PIPEWORK_CACHE_MAX_ENTRIES`). */
  maxEntries: number;
  /** Most bytes of values held at once (`PIPEWORK_CACHE_MAX_BYTES`). */
  maxBytes: number;
}

export function loadCacheConfig(env: NodeJS.ProcessEnv): CacheConfig {
  return {
    maxEntries: positiveIntFrom(env, 'PIPEWORK_CACHE_MAX_ENTRIES', 10_000),
    maxBytes: positiveIntFrom(env, 'PIPEWORK_CACHE_MAX_BYTES', 64 * 1024 * 1024),
  };
}
