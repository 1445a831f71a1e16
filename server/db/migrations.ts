/**
 * Schema migrations, kept per module (`iam`, `property`, ...) so that each module owns its tables and
 * numbers its own steps. Each step runs once, in a transaction, in order.
 */
import type { SqliteDatabase } from './open-database';

export interface Migration {
  /** 1, 2, 3 ... within the module; never renumber a released step. */
  version: number;
  description: string;
  up(db: SqliteDatabase): void;
}

export function migrate(db: SqliteDatabase, module: string, migrations: readonly Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    module TEXT NOT NULL, version INTEGER NOT NULL, description TEXT NOT NULL, applied INTEGER NOT NULL,
    PRIMARY KEY (module, version))`);
  const applied = new Set(
    db
      .prepare<[string], { version: number }>('SELECT version FROM schema_migrations WHERE module = ?')
      .all(module)
      .map((r) => r.version),
  );
  const record = db.prepare(
    'INSERT INTO schema_migrations (module, version, description, applied) VALUES (?, ?, ?, ?)',
  );
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      migration.up(db);
      record.run(module, migration.version, migration.description, Date.now());
    }).immediate();
  }
}
