/** The property module's tables: properties (unique key = the index every range scan uses) and chunked attachments. */
import type { Migration } from '../../db';

export const PROPERTY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'properties and chunked attachments',
    up(db) {
      db.exec(`
        CREATE TABLE property (
          id INTEGER PRIMARY KEY,
          uuid TEXT NOT NULL UNIQUE,
          key TEXT NOT NULL UNIQUE,
          value TEXT,
          type TEXT NOT NULL,
          created INTEGER NOT NULL,
          updated INTEGER,
          ttl INTEGER,
          expires_at INTEGER,
          default_value TEXT,
          version INTEGER NOT NULL DEFAULT 1,
          author TEXT
        );
        CREATE INDEX property_expires_at ON property (expires_at) WHERE expires_at IS NOT NULL;

        CREATE TABLE property_attachment (
          id INTEGER PRIMARY KEY,
          property_id INTEGER NOT NULL REFERENCES property (id) ON DELETE CASCADE,
          uuid TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          content_type TEXT NOT NULL,
          length INTEGER NOT NULL DEFAULT 0,
          chunks INTEGER NOT NULL DEFAULT 0,
          created INTEGER NOT NULL,
          updated INTEGER,
          -- 1 while a streamed upload is still arriving: invisible, replaced into place when complete.
          pending INTEGER NOT NULL DEFAULT 0
        );
        CREATE UNIQUE INDEX property_attachment_name ON property_attachment (property_id, name) WHERE pending = 0;
        CREATE INDEX property_attachment_property ON property_attachment (property_id);

        CREATE TABLE property_attachment_chunk (
          id INTEGER PRIMARY KEY,
          attachment_id INTEGER NOT NULL REFERENCES property_attachment (id) ON DELETE CASCADE,
          idx INTEGER NOT NULL,
          data BLOB NOT NULL,
          UNIQUE (attachment_id, idx)
        );
      `);
    },
  },
  {
    version: 2,
    description: 'attachment revisions, so a download notices content replaced under it',
    up(db) {
      db.exec('ALTER TABLE property_attachment ADD COLUMN revision INTEGER NOT NULL DEFAULT 0');
    },
  },
  {
    version: 3,
    description: 'tags (a lock is one) and the trash bin (docs/property-marks.md)',
    up(db) {
      db.exec(`
        ALTER TABLE property ADD COLUMN tags TEXT;
        ALTER TABLE property ADD COLUMN trashed_key TEXT;
        ALTER TABLE property ADD COLUMN trashed_at INTEGER;
        ALTER TABLE property ADD COLUMN trashed_by TEXT;
        ALTER TABLE property ADD COLUMN purge_at INTEGER;
        ALTER TABLE property ADD COLUMN kept_expires_at INTEGER;
        CREATE INDEX property_trashed_key ON property (trashed_key) WHERE trashed_key IS NOT NULL;
        CREATE INDEX property_purge_at ON property (purge_at) WHERE purge_at IS NOT NULL;
      `);
    },
  },
];
