/**
 * Test support for the PostgreSQL event tests: a fresh schema per test on the file's throwaway cluster, with
 * as many pools on it as the test wants instances, and the NOTIFY channel of that schema (channels are
 * database-wide, so each schema gets its own to keep tests apart).
 */
import pg from 'pg';

export interface TestSchema {
  url: string;
  /** A new pool on the schema: one per simulated instance. */
  pool(max?: number): pg.Pool;
  /** What the listening connection of an instance connects with. */
  connection: pg.ClientConfig;
  channel: string;
  drop(): Promise<void>;
}

let schemas = 0;

export async function freshEventSchema(url: string): Promise<TestSchema> {
  const schema = `events_${process.pid}_${++schemas}`;
  const admin = new pg.Client(url);
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const connection: pg.ClientConfig = { connectionString: url, options: `-c search_path=${schema}` };
  const pools: pg.Pool[] = [];
  return {
    url,
    connection,
    channel: `pipework_events_${schema}`,
    pool(max = 4) {
      const pool = new pg.Pool({ ...connection, max });
      pools.push(pool);
      return pool;
    },
    async drop() {
      await Promise.all(pools.filter((p) => !p.ended).map((p) => p.end()));
      const cleanup = new pg.Client(url);
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}
