/**
 * The SQL database a module's store runs on, SQLite or PostgreSQL, behind one asynchronous port: single
 * statements, units of work in one transaction (`sql-steps.ts`), and the few spellings that differ between
 * the two (`SqlDialect`). Stores are written once against it; only their migrations exist per database.
 */
import type { SqlRunResult, SqlSteps } from './sql-steps';

export type SqlDialectName = 'sqlite' | 'postgres';

/** The spellings that differ. Everything else is written in the SQL both databases share. */
export interface SqlDialect {
  readonly name: SqlDialectName;
  /** `column = value`, ignoring ASCII case (a NOCASE column on SQLite, `lower()` on PostgreSQL). */
  equalsIgnoringCase(column: string, placeholder: string): string;
  /** The LIKE operator that ignores case. */
  readonly likeIgnoringCase: string;
  /** Ordering by a text column, ignoring case. */
  orderIgnoringCase(column: string): string;
  /** Appended to a SELECT that reads a row it is about to change (`FOR UPDATE` on PostgreSQL). */
  readonly forUpdate: string;
}

export interface SqlPort {
  readonly dialect: SqlDialect;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  run(sql: string, params?: readonly unknown[]): Promise<SqlRunResult>;
  /** Runs a unit of work in one transaction; a throw rolls all of it back. */
  transaction<T>(work: () => SqlSteps<T>): Promise<T>;
  /**
   * Runs `fn` while holding an installation-wide lock named `name` (a PostgreSQL advisory lock; in one
   * process on SQLite, a queue). For start-up work that several instances must not do at once.
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
}
