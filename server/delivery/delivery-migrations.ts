/**
 * The delivery module's tables, one list per database: a delivery (who sent it, subject, message, privacy
 * level, state, expiry), its recipients (each with the hash of its download token and, from privacy level 2,
 * of its password; from level 3 the content key wrapped for it) and its attachments' bytes.
 */
import type { ModuleMigrations } from '../db/sql';

const SQLITE_V1 = `
  CREATE TABLE delivery (
    uuid TEXT PRIMARY KEY,
    sender_uuid TEXT NOT NULL,
    sender_name TEXT NOT NULL,
    sender_email TEXT,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    privacy_level INTEGER NOT NULL,
    status TEXT NOT NULL,
    notify_sender INTEGER NOT NULL,
    delete_after INTEGER NOT NULL,
    encryption TEXT,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
  );
  CREATE INDEX delivery_sender ON delivery (sender_uuid, created);
  CREATE INDEX delivery_expiry ON delivery (delete_after) WHERE delete_after > 0;
  CREATE TABLE delivery_recipient (
    delivery_uuid TEXT NOT NULL,
    email TEXT NOT NULL,
    locale TEXT,
    token_hash TEXT UNIQUE,
    password_hash TEXT,
    wrapped_key TEXT,
    sent INTEGER,
    downloads INTEGER NOT NULL DEFAULT 0,
    last_download INTEGER,
    PRIMARY KEY (delivery_uuid, email)
  );
  CREATE INDEX delivery_recipient_email ON delivery_recipient (email);
  CREATE TABLE delivery_attachment (
    delivery_uuid TEXT NOT NULL,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    length INTEGER NOT NULL,
    content BLOB NOT NULL,
    PRIMARY KEY (delivery_uuid, position)
  );`;

const POSTGRES_V1 = `
  CREATE TABLE delivery (
    uuid text PRIMARY KEY,
    sender_uuid text NOT NULL,
    sender_name text NOT NULL,
    sender_email text,
    subject text NOT NULL,
    message text NOT NULL,
    privacy_level integer NOT NULL,
    status text NOT NULL,
    notify_sender integer NOT NULL,
    delete_after bigint NOT NULL,
    encryption text,
    created bigint NOT NULL,
    updated bigint NOT NULL
  );
  CREATE INDEX delivery_sender ON delivery (sender_uuid, created);
  CREATE INDEX delivery_expiry ON delivery (delete_after) WHERE delete_after > 0;
  CREATE TABLE delivery_recipient (
    delivery_uuid text NOT NULL,
    email text NOT NULL,
    locale text,
    token_hash text UNIQUE,
    password_hash text,
    wrapped_key text,
    sent bigint,
    downloads integer NOT NULL DEFAULT 0,
    last_download bigint,
    PRIMARY KEY (delivery_uuid, email)
  );
  CREATE INDEX delivery_recipient_email ON delivery_recipient (email);
  CREATE TABLE delivery_attachment (
    delivery_uuid text NOT NULL,
    position integer NOT NULL,
    name text NOT NULL,
    mime_type text NOT NULL,
    length bigint NOT NULL,
    content bytea NOT NULL,
    PRIMARY KEY (delivery_uuid, position)
  );`;

export const DELIVERY_MIGRATIONS: ModuleMigrations = {
  sqlite: [
    {
      version: 1,
      description: 'deliveries, their recipients and attachments',
      up: (db) => db.exec(SQLITE_V1),
    },
  ],
  postgres: [{ version: 1, description: 'deliveries, their recipients and attachments', sql: POSTGRES_V1 }],
};
