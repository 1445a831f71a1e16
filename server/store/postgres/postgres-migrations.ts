/**
 * PostgreSQL schema migrations, versioned per module in `schema_migrations` like the SQLite ones
 * (`server/db/migrations.ts`). All pending steps run in one transaction holding a transaction-level advisory
 * lock, so several instances starting at once migrate once: the second waits, then finds nothing to do.
 */
import type { Pool } from 'pg';
import { inPostgresTransaction } from '../../db/postgres-transaction';

export interface PostgresMigration {
  /** 1, 2, 3 ... within the module; never renumber a released step. */
  version: number;
  description: string;
  /** SQL run inside the migration transaction. */
  sql: string;
}

/** The advisory lock every Pipework migration takes (one per database). */
const MIGRATION_LOCK = "hashtext('pipework.schema_migrations')";

/** Applies the module's pending steps in order; returns how many it applied. */
export async function migratePostgres(
  pool: Pool,
  module: string,
  migrations: readonly PostgresMigration[],
): Promise<number> {
  return inPostgresTransaction(pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    module text NOT NULL, version integer NOT NULL, description text NOT NULL, applied bigint NOT NULL,
    PRIMARY KEY (module, version))`);
    const done = await client.query<{ version: number }>(
      'SELECT version FROM schema_migrations WHERE module = $1',
      [module],
    );
    const applied = new Set(done.rows.map((r) => r.version));
    let count = 0;
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query(
        'INSERT INTO schema_migrations (module, version, description, applied) VALUES ($1, $2, $3, $4)',
        [module, migration.version, migration.description, Date.now()],
      );
      count += 1;
    }
    return count;
  });
}

/**
 * The property module's tables, as on SQLite. `key` is COLLATE "C" so that its order and prefix ranges are
 * byte order (what SQLite and `scanRanges` assume); its unique index includes `expires_at` so that a key
 * listing is an index-only range scan.
 */
export const POSTGRES_PROPERTY_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'properties and chunked attachments',
    sql: `
      CREATE TABLE property (
        id bigserial PRIMARY KEY,
        uuid text NOT NULL UNIQUE,
        key text COLLATE "C" NOT NULL,
        value text,
        type text NOT NULL,
        created bigint NOT NULL,
        updated bigint,
        ttl integer,
        expires_at bigint,
        default_value text,
        version integer NOT NULL DEFAULT 1,
        author text
      );
      CREATE UNIQUE INDEX property_key ON property (key) INCLUDE (expires_at);
      CREATE INDEX property_expires_at ON property (expires_at) WHERE expires_at IS NOT NULL;

      CREATE TABLE property_attachment (
        id bigserial PRIMARY KEY,
        property_id bigint NOT NULL REFERENCES property (id) ON DELETE CASCADE,
        uuid text NOT NULL UNIQUE,
        name text NOT NULL,
        content_type text NOT NULL,
        length bigint NOT NULL DEFAULT 0,
        chunks integer NOT NULL DEFAULT 0,
        created bigint NOT NULL,
        updated bigint,
        -- true while a streamed upload is still arriving: invisible, swapped into place when complete.
        pending boolean NOT NULL DEFAULT false,
        revision integer NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX property_attachment_name ON property_attachment (property_id, name) WHERE NOT pending;
      CREATE INDEX property_attachment_property ON property_attachment (property_id);

      CREATE TABLE property_attachment_chunk (
        attachment_id bigint NOT NULL REFERENCES property_attachment (id) ON DELETE CASCADE,
        idx integer NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (attachment_id, idx)
      );`,
  },
  {
    version: 2,
    description: 'tags (a lock is one) and the trash bin (docs/property-marks.md)',
    sql: `
      ALTER TABLE property ADD COLUMN tags text;
      ALTER TABLE property ADD COLUMN trashed_key text COLLATE "C";
      ALTER TABLE property ADD COLUMN trashed_at bigint;
      ALTER TABLE property ADD COLUMN trashed_by text;
      ALTER TABLE property ADD COLUMN purge_at bigint;
      ALTER TABLE property ADD COLUMN kept_expires_at bigint;
      CREATE INDEX property_trashed_key ON property (trashed_key) WHERE trashed_key IS NOT NULL;
      CREATE INDEX property_purge_at ON property (purge_at) WHERE purge_at IS NOT NULL;`,
  },
];
