/**
 * One transaction on a pooled PostgreSQL connection: BEGIN, the work, COMMIT; ROLLBACK when the work fails.
 * Shared by the SQL port, the property and cache stores and the migrations. It imports nothing of ours, so
 * `server/db` and `server/store/postgres` can both use it without an import cycle.
 */
import type { Pool, PoolClient } from 'pg';

/** Runs `work` between BEGIN and COMMIT on one pooled connection; on error rolls back and rethrows. */
export async function inPostgresTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
