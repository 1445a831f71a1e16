/**
 * Column lists, queries and transactions shared by the PostgreSQL property and attachment stores. The row
 * mapping and time-to-live rules are the same on both databases (`../property-rows.ts`).
 * Epoch-millisecond bigints are read as float8 so that rows hold numbers whatever the pool's type parsers.
 */
import type { Pool, PoolClient } from 'pg';
import { inPostgresTransaction } from '../../db/postgres-transaction';

export type Queryable = Pool | PoolClient;

export const PG_PROPERTY_COLUMNS =
  'uuid, key, value, type, created::float8 AS created, updated::float8 AS updated, ' +
  'ttl AS "timeToLive", default_value AS "defaultValue", version';

export const PG_STORED_COLUMNS = `id::float8 AS id, expires_at::float8 AS "expiresAt", author, tags, ${PG_PROPERTY_COLUMNS}`;

/** A property counts while it has not expired; `$n` is now. */
export function pgLive(n: number): string {
  return `(expires_at IS NULL OR expires_at > $${n})`;
}

export async function rows<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query(sql, params)).rows as T[];
}

export async function first<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return (await rows<T>(db, sql, params))[0];
}

/** PostgreSQL's unique_violation: a concurrent writer created the same key first. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/**
 * Runs `work` in one transaction on a pooled connection. A unique violation (two instances creating the
 * same key at once) retries once: the retry sees the other's row and applies the `ifExists` rule.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  try {
    return await inPostgresTransaction(pool, work);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return inPostgresTransaction(pool, work);
  }
}

/**
 * The statement of one range of a wildcard listing (`key >= from` or `key > from` when resuming after a
 * page, `key < to`), live rows only, in key order: an index range scan on `property_key`.
 */
export function rangeStatement(
  columns: string,
  range: { from: string; inclusive: boolean; to?: string },
  now: number,
  limit?: number,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [range.from, now];
  let sql = `SELECT ${columns} FROM property WHERE key ${range.inclusive ? '>=' : '>'} $1 AND ${pgLive(2)}`;
  if (range.to !== undefined) {
    params.push(range.to);
    sql += ` AND key < $${params.length}`;
  }
  sql += ' ORDER BY key';
  if (limit !== undefined) {
    params.push(limit);
    sql += ` LIMIT $${params.length}`;
  }
  return { sql, params };
}
