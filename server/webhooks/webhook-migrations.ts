/** The webhooks' table, one list per database: each with the SHA-256 of its token, never the token. */
import type { ModuleMigrations } from '../db/sql';

const table = (big: string) => `
  CREATE TABLE webhook (
    uuid TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    event_key TEXT NOT NULL,
    pipeline_key TEXT NOT NULL,
    payload_type TEXT NOT NULL,
    max_payload_length INTEGER NOT NULL,
    rate_per_minute INTEGER NOT NULL,
    created_by TEXT NOT NULL,
    created ${big} NOT NULL
  );`;

export const WEBHOOK_MIGRATIONS: ModuleMigrations = {
  sqlite: [{ version: 1, description: 'webhooks', up: (db) => db.exec(table('INTEGER')) }],
  postgres: [{ version: 1, description: 'webhooks', sql: table('bigint') }],
};
