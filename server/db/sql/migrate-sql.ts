/** Runs a module's migrations on whichever database the port is on: each database has its own versioned list. */
import { migratePostgres, type PostgresMigration } from '../../store/postgres/postgres-migrations';
import { type Migration, migrate } from '../migrations';
import { PostgresSqlPort } from './postgres-sql-port';
import type { SqlPort } from './sql-port';
import { SqliteSqlPort } from './sqlite-sql-port';

export interface ModuleMigrations {
  sqlite: readonly Migration[];
  postgres: readonly PostgresMigration[];
}

export async function migrateModule(
  sql: SqlPort,
  module: string,
  migrations: ModuleMigrations,
): Promise<void> {
  if (sql instanceof SqliteSqlPort) migrate(sql.db, module, migrations.sqlite);
  else if (sql instanceof PostgresSqlPort) await migratePostgres(sql.pool, module, migrations.postgres);
  else throw new Error(`No migrations for a ${sql.dialect.name} port of this kind.`);
}
