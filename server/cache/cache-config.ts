/** Bounds of the in-memory cache (`cache.*`). */

export interface CacheConfig {
  /** Most entries held at once, over all tenants (`PIPEWORK_CACHE_MAX_ENTRIES`). */
  maxEntries: number;
  /** Most bytes of values held at once (`PIPEWORK_CACHE_MAX_BYTES`). */
  maxBytes: number;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return n;
}

export function loadCacheConfig(env: NodeJS.ProcessEnv): CacheConfig {
  return {
    maxEntries: positive(env, 'PIPEWORK_CACHE_MAX_ENTRIES', 10_000),
    maxBytes: positive(env, 'PIPEWORK_CACHE_MAX_BYTES', 64 * 1024 * 1024),
  };
}
