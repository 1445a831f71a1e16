/**
 * The parts of an installation on SQLite: one instance, so the service publishes its events itself, the cache
 * is in memory and periodic jobs only need not to overlap within the process.
 */
import { MemoryCacheStore, loadCacheConfig } from '../cache';
import type { ServerConfig } from '../config';
import { InProcessJobLock } from '../db/installation-lock';
import type { SqliteServerDatabase } from '../db/server-database';
import { SqlitePropertyStore } from '../store/sqlite/sqlite-property-store';
import type { DatabaseParts } from './database-parts';

export function sqliteParts(database: SqliteServerDatabase, config: ServerConfig): DatabaseParts {
  return {
    store: new SqlitePropertyStore(database.db, { history: config.history }),
    eventsFromStore: false,
    cache: new MemoryCacheStore(config.cache ?? loadCacheConfig({})),
    jobLock: new InProcessJobLock(),
    iam: {},
    async startEvents() {
      return { async stop() {} };
    },
    async close() {},
  };
}
