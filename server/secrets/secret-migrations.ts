/**
 * The secrets module's table, one list per database: a secret's scope (a user, a group, a tenant or the
 * installation), its name, format, the sealed value with the id of the key that sealed it, and its expiry.
 */
import type { ModuleMigrations } from '../db/sql';

const sqliteV1 = `
  CREATE TABLE secret (
    uuid TEXT PRIMARY KEY,
    scope TEXT NOT NULL,
    scope_id TEXT NOT NULL,
    name TEXT NOT NULL,
    format TEXT NOT NULL,
    key_id TEXT NOT NULL,
    sealed TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    expires INTEGER,
    UNIQUE (scope, scope_id, name)
  );
  CREATE INDEX secret_expiry ON secret (expires) WHERE expires IS NOT NULL;`;

const postgresV1 = `
  CREATE TABLE secret (
    uuid text PRIMARY KEY,
    scope text NOT NULL,
    scope_id text NOT NULL,
    name text NOT NULL,
    format text NOT NULL,
    key_id text NOT NULL,
    sealed text NOT NULL,
    created_by text NOT NULL,
    created bigint NOT NULL,
    updated bigint NOT NULL,
    expires bigint,
    UNIQUE (scope, scope_id, name)
  );
  CREATE INDEX secret_expiry ON secret (expires) WHERE expires IS NOT NULL;`;

export const SECRET_MIGRATIONS: ModuleMigrations = {
  sqlite: [{ version: 1, description: 'named secrets, sealed', up: (db) => db.exec(sqliteV1) }],
  postgres: [{ version: 1, description: 'named secrets, sealed', sql: postgresV1 }],
};
