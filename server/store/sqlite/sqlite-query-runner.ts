/**
 * `runQuery` of the SQLite store: on a file database, a read-only connection in a worker thread (the one of
 * `sql.query`'s SQLite sources), ended past the time limit since better-sqlite3 cannot interrupt a query; on an
 * in-memory database (tests) on the connection itself, bounded by the rows the statement's LIMIT allows.
 */
import { PipeworkError } from '../../../shared/errors';
import type { QueryRows } from '../../../shared/property';
import type { SqliteDatabase } from '../../db';
import { SqliteDataSource } from '../../datasources/sqlite-data-source';

export class SqliteQueryRunner {
  private source: SqliteDataSource | undefined;

  constructor(private readonly db: SqliteDatabase) {}

  async run(
    sql: string,
    params: unknown[],
    limits: { maxRows: number; timeoutMillis: number },
  ): Promise<QueryRows> {
    if (this.db.memory) {
      const stmt = this.db.prepare(sql);
      if (!stmt.reader || !stmt.readonly) throw new PipeworkError('FORBIDDEN', 'property.query only reads.');
      stmt.raw(true);
      return { columns: stmt.columns().map((c) => c.name), rows: stmt.all(...params) as unknown[][] };
    }
    this.source ??= new SqliteDataSource({
      name: 'property',
      kind: 'sqlite',
      location: this.db.name,
      writable: false,
    });
    return this.source.query(sql, params, limits);
  }

  async close(): Promise<void> {
    await this.source?.close();
    this.source = undefined;
  }
}
