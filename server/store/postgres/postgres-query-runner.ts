/**
 * `runQuery` of the PostgreSQL store: one READ ONLY transaction with `statement_timeout`, rows as lists,
 * bigints and numerics as numbers; a query ended by the timeout is LIMIT_EXCEEDED, a failing one BAD_REQUEST.
 */
import type { Pool } from 'pg';
import { PipeworkError } from '../../../shared/errors';
import type { QueryRows } from '../../../shared/property';

export async function runReadOnlyQuery(
  pool: Pool,
  sql: string,
  params: unknown[],
  limits: { maxRows: number; timeoutMillis: number },
): Promise<QueryRows> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(limits.timeoutMillis))}`);
    const result = await client.query({ text: sql, values: params, rowMode: 'array' });
    return {
      columns: result.fields.map((f) => f.name),
      rows: (result.rows as unknown[][]).slice(0, limits.maxRows),
    };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '57014') {
      throw new PipeworkError('LIMIT_EXCEEDED', `The query ran longer than ${limits.timeoutMillis} ms.`, {
        limit: 'time',
      });
    }
    if (error instanceof PipeworkError) throw error;
    throw new PipeworkError('BAD_REQUEST', `The query failed: ${(error as Error).message}`);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
}
