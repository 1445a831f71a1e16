/** The cache behind `cache.*`: the interface and the in-memory implementation. */
export { loadCacheConfig, type CacheConfig } from './cache-config';
export { sizeOf, type CachedValue, type CacheStore } from './cache-store';
export { MemoryCacheStore } from './memory-cache-store';
