/**
 * The history's tables, a module of their own on both databases: versions per key (the index every listing
 * and the per-key pruning use) and the values they refer to by hash, each stored once.
 */
import type { Migration } from '../db';
import type { PostgresMigration } from './postgres/postgres-migrations';

export const HISTORY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'property versions and their values by hash',
    up(db) {
      db.exec(`
        CREATE TABLE property_history (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          key TEXT NOT NULL,
          uuid TEXT NOT NULL,
          kind TEXT NOT NULL,
          version INTEGER,
          value_hash TEXT,
          type TEXT,
          ttl INTEGER,
          default_value TEXT,
          actor TEXT,
          at INTEGER NOT NULL,
          other_key TEXT
        );
        CREATE INDEX property_history_key ON property_history (key, id);
        CREATE INDEX property_history_at ON property_history (at);
        CREATE INDEX property_history_hash ON property_history (value_hash) WHERE value_hash IS NOT NULL;
        CREATE TABLE property_history_value (hash TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      `);
    },
  },
];

export const POSTGRES_HISTORY_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'property versions and their values by hash',
    sql: `
      CREATE TABLE property_history (
        id bigserial PRIMARY KEY,
        key text COLLATE "C" NOT NULL,
        uuid text NOT NULL,
        kind text NOT NULL,
        version integer,
        value_hash text,
        type text,
        ttl integer,
        default_value text,
        actor text,
        at bigint NOT NULL,
        other_key text
      );
      CREATE INDEX property_history_key ON property_history (key, id);
      CREATE INDEX property_history_at ON property_history (at);
      CREATE INDEX property_history_hash ON property_history (value_hash) WHERE value_hash IS NOT NULL;
      CREATE TABLE property_history_value (hash text PRIMARY KEY, value text NOT NULL);`,
  },
];
