// The in-memory cache against the CacheStore contract (the PostgreSQL one runs the same suite).
import { runCacheStoreContract } from './cache-store.contract';
import { MemoryCacheStore } from './memory-cache-store';

runCacheStoreContract('in memory', async (bounds, clock) => {
  const store = new MemoryCacheStore(bounds, clock);
  return { store, stats: async () => store.stats(), dispose: async () => undefined };
});
