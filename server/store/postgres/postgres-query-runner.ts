/**
 * `runQuery` of the PostgreSQL store: one READ ONLY transaction with `statement_timeout`, rows as lists,
 * bigints and numerics as numbers; a query ended by the timeout is LIMIT_EXCEEDED, a failing one BAD_REQUEST.
 */
import type { Pool, PoolClient } from 'pg';
import { PipeworkError } from '../../../shared/errors';
import type { QueryRows } from '../../../shared/property';

/** Runs `work` on a pooled connection inside a READ ONLY transaction, rolled back afterwards. */
export async function inReadOnlyTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN READ ONLY');
    return await work(client);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}

export async function runReadOnlyQuery(
  pool: Pool,
  sql: string,
  params: unknown[],
  limits: { maxRows: number; timeoutMillis: number },
): Promise<QueryRows> {
  return inReadOnlyTransaction(pool, async (client) => {
    try {
      await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(limits.timeoutMillis))}`);
      const result = await client.query({ text: sql, values: params, rowMode: 'array' });
      return {
        columns: result.fields.map((f) => f.name),
        rows: (result.rows as unknown[][]).slice(0, limits.maxRows),
      };
    } catch (error) {
      throw queryFailure(error, limits.timeoutMillis);
    }
  });
}

/** A failed query as the caller sees it: LIMIT_EXCEEDED when the timeout ended it, else BAD_REQUEST. */
function queryFailure(error: unknown, timeoutMillis: number): PipeworkError {
  if ((error as { code?: string }).code === '57014') {
    return new PipeworkError('LIMIT_EXCEEDED', `The query ran longer than ${timeoutMillis} ms.`, {
      limit: 'time',
    });
  }
  if (error instanceof PipeworkError) return error;
  return new PipeworkError('BAD_REQUEST', `The query failed: ${(error as Error).message}`);
}
