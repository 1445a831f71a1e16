/**
 * The SQL port on PostgreSQL (a `pg` pool). A unit of work runs on one pooled connection between BEGIN and
 * COMMIT; 64-bit integers (the millisecond timestamps) come back as numbers, as from SQLite.
 */
import type pg from 'pg';
import type { Pool, PoolClient } from 'pg';
import { pgDriver } from '../pg-driver';
import { inPostgresTransaction } from '../postgres-transaction';
import type { SqlDialect, SqlPort } from './sql-port';
import { type SqlCall, type SqlRunResult, type SqlSteps, driveAsync } from './sql-steps';
import { asUniqueConflict } from './unique-violation';

export const POSTGRES_DIALECT: SqlDialect = {
  name: 'postgres',
  equalsIgnoringCase: (column, placeholder) => `lower(${column}) = lower(${placeholder})`,
  likeIgnoringCase: 'ILIKE',
  orderIgnoringCase: (column) => `lower(${column}) COLLATE "C"`,
  forUpdate: ' FOR UPDATE',
};

const INT8_OID = 20;
/** bigint columns as numbers: every one of ours holds milliseconds or counts, far below 2^53. */
export const numericTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pgDriver().types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

type Queryable = Pick<Pool | PoolClient, 'query'>;

async function answer(db: Queryable, call: SqlCall): Promise<unknown> {
  const result = await db
    .query({ text: call.statement.sql, values: call.statement.params as unknown[], types: numericTypes })
    .catch((error: unknown) => {
      throw asUniqueConflict(error);
    });
  if (call.kind === 'get') return result.rows[0];
  if (call.kind === 'all') return result.rows;
  return { changes: result.rowCount ?? 0 } satisfies SqlRunResult;
}

/** Runs a unit of work on a client inside a transaction someone else began (a store's own write). */
export function driveOnClient<T>(client: PoolClient, work: SqlSteps<T>): Promise<T> {
  return driveAsync(work, (call) => answer(client, call));
}

export class PostgresSqlPort implements SqlPort {
  readonly dialect = POSTGRES_DIALECT;

  constructor(readonly pool: Pool) {}

  async get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await answer(this.pool, { kind: 'get', statement: { sql, params } })) as T | undefined;
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await answer(this.pool, { kind: 'all', statement: { sql, params } })) as T[];
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<SqlRunResult> {
    return (await answer(this.pool, { kind: 'run', statement: { sql, params } })) as SqlRunResult;
  }

  async transaction<T>(work: () => SqlSteps<T>): Promise<T> {
    return inPostgresTransaction(this.pool, (client) => driveAsync(work(), (call) => answer(client, call)));
  }

  async exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock(hashtext('pipework.' || $1))", [name]);
      try {
        return await fn();
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext('pipework.' || $1))", [name]);
      }
    } finally {
      client.release();
    }
  }
}
