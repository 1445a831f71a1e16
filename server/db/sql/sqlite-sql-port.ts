/**
 * The SQL port on the embedded SQLite database (better-sqlite3). Statements run synchronously underneath, so
 * a unit of work runs inside one `BEGIN IMMEDIATE` transaction in a single turn of the event loop: nothing
 * else can write in between. Answers are handed out as resolved promises, as from PostgreSQL.
 */
import type { SqliteDatabase } from '../open-database';
import type { SqlDialect, SqlPort } from './sql-port';
import { type SqlCall, type SqlRunResult, type SqlSteps, driveSync } from './sql-steps';
import { asUniqueConflict } from './unique-violation';

export const SQLITE_DIALECT: SqlDialect = {
  name: 'sqlite',
  equalsIgnoringCase: (column, placeholder) => `${column} = ${placeholder} COLLATE NOCASE`,
  likeIgnoringCase: 'LIKE',
  orderIgnoringCase: (column) => `${column} COLLATE NOCASE`,
  forUpdate: '',
};

interface Prepared {
  statement: ReturnType<SqliteDatabase['prepare']> & {
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number };
  };
  /** For each `?` in order, the index of the parameter it takes. */
  order: number[];
}

/** Rewrites `$1 ... $n` into `?` (a parameter may be used twice) and remembers which parameter each takes. */
export function toSqlitePlaceholders(sql: string): { sql: string; order: number[] } {
  const order: number[] = [];
  const rewritten = sql.replace(/\$(\d+)/g, (_, n: string) => {
    order.push(Number(n) - 1);
    return '?';
  });
  return { sql: rewritten, order };
}

export class SqliteSqlPort implements SqlPort {
  readonly dialect = SQLITE_DIALECT;
  private readonly prepared = new Map<string, Prepared>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly db: SqliteDatabase) {}

  private prepare(sql: string): Prepared {
    let entry = this.prepared.get(sql);
    if (!entry) {
      const rewritten = toSqlitePlaceholders(sql);
      entry = { statement: this.db.prepare(rewritten.sql) as Prepared['statement'], order: rewritten.order };
      if (this.prepared.size > 500) this.prepared.clear();
      this.prepared.set(sql, entry);
    }
    return entry;
  }

  /** Answers one call at once (also used by the synchronous readers PEL needs). */
  answer(call: SqlCall): unknown {
    const { statement, order } = this.prepare(call.statement.sql);
    const params: unknown[] = order.map((i) => sqliteValue(call.statement.params[i]));
    if (call.kind === 'get') return statement.get(...params);
    if (call.kind === 'all') return statement.all(...params);
    try {
      return { changes: statement.run(...params).changes } satisfies SqlRunResult;
    } catch (error) {
      throw asUniqueConflict(error);
    }
  }

  /** Runs a unit of work synchronously in one transaction. */
  transactionSync<T>(work: () => SqlSteps<T>): T {
    return this.db.transaction(() => driveSync(work(), (call) => this.answer(call))).immediate();
  }

  /** The first row, answered at once. */
  rowSync<T>(sql: string, params: readonly unknown[] = []): T | undefined {
    return this.answer({ kind: 'get', statement: { sql, params } }) as T | undefined;
  }

  async get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return this.rowSync<T>(sql, params);
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.answer({ kind: 'all', statement: { sql, params } }) as T[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<SqlRunResult> {
    return this.answer({ kind: 'run', statement: { sql, params } }) as SqlRunResult;
  }

  async transaction<T>(work: () => SqlSteps<T>): Promise<T> {
    return this.transactionSync(work);
  }

  exclusive<T>(_name: string, fn: () => Promise<T>): Promise<T> {
    const result = this.queue.then(fn, fn);
    this.queue = result.catch(() => undefined);
    return result;
  }
}

/** SQLite stores booleans as 0/1. */
function sqliteValue(value: unknown): unknown {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}
