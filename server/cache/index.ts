/** The cache behind `cache.*`: the interface, the in-memory implementation and the PostgreSQL one shared by instances. */
export { loadCacheConfig, type CacheConfig } from './cache-config';
export { sizeOf, type CachedValue, type CacheStore } from './cache-store';
export { MemoryCacheStore } from './memory-cache-store';
export { PostgresCacheStore, type PostgresCacheStoreOptions } from './postgres-cache-store';
export { POSTGRES_CACHE_MIGRATIONS } from './postgres-cache-migrations';
