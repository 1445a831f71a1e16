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

/** Version 2: the name of the secret a signed call is checked with (the secret itself stays in the secrets store). */
const signatureSecret = 'ALTER TABLE webhook ADD COLUMN secret_name TEXT;';

export const WEBHOOK_MIGRATIONS: ModuleMigrations = {
  sqlite: [
    { version: 1, description: 'webhooks', up: (db) => db.exec(table('INTEGER')) },
    { version: 2, description: 'webhook signature secrets', up: (db) => db.exec(signatureSecret) },
  ],
  postgres: [
    { version: 1, description: 'webhooks', sql: table('bigint') },
    { version: 2, description: 'webhook signature secrets', sql: signatureSecret },
  ],
};
