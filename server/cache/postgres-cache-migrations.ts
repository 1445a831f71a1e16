/**
 * The `cache` module's PostgreSQL tables (versioned like the property module's, `migratePostgres`): one row per
 * entry, a one-row tally of what the whole cache holds (its row lock serializes the writes that change it, so
 * instances sharing the database keep the bounds), and a sequence that orders entries by recency of use.
 */
import type { PostgresMigration } from '../store/postgres/postgres-migrations';

export const POSTGRES_CACHE_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'cache entries, their tally and recency',
    sql: `
      CREATE SEQUENCE cache_recency;
      CREATE TABLE cache_entry (
        scope text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        kind text NOT NULL CHECK (kind IN ('json', 'bytes')),
        text text,
        data bytea,
        mime_type text,
        name text,
        size bigint NOT NULL,
        expires_at bigint NOT NULL,
        -- Larger is more recent: set from cache_recency by every put and read, across all instances.
        last_used bigint NOT NULL DEFAULT nextval('cache_recency'),
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX cache_entry_last_used ON cache_entry (last_used);
      CREATE INDEX cache_entry_expires_at ON cache_entry (scope, expires_at);

      CREATE TABLE cache_tally (
        id integer PRIMARY KEY CHECK (id = 1),
        entries bigint NOT NULL,
        bytes bigint NOT NULL
      );
      INSERT INTO cache_tally (id, entries, bytes) VALUES (1, 0, 0);`,
  },
];
