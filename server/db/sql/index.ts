export type { SqlDialect, SqlDialectName, SqlPort } from './sql-port';
export { type SqlCall, type SqlRunResult, type SqlSteps, all, get, run } from './sql-steps';
export { SqliteSqlPort, SQLITE_DIALECT } from './sqlite-sql-port';
export { PostgresSqlPort, POSTGRES_DIALECT, driveOnClient } from './postgres-sql-port';
export { migrateModule, type ModuleMigrations } from './migrate-sql';
