// The PostgreSQL property store on a real throwaway cluster: the same contract suite as SQLite, the query
// plan of a wildcard listing, and migrations started twice at once.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileKeyPattern, scanRanges } from '../../../shared/property';
import {
  freshTestSchema,
  postgresMissingReason,
  startTestPostgres,
  type TestPostgres,
} from '../../testing/postgres';
import { runPropertyStoreContract } from '../property-store.contract';
import { POSTGRES_PROPERTY_MIGRATIONS, migratePostgres } from './postgres-migrations';
import { PostgresPropertyStore } from './postgres-property-store';
import { levelScanStatement } from './postgres-listing';
import { PG_PROPERTY_COLUMNS, rangeStatement } from './postgres-rows';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL property store tests skipped: ${pgMissing}`);

let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);

afterAll(() => {
  postgres?.stop();
});

/** A pool on a fresh, empty schema of the throwaway cluster, and how to drop it. */
async function freshSchema() {
  const schema = await freshTestSchema(postgres!.url, 'test');
  return { pool: schema.pool(), drop: schema.drop };
}

if (!pgMissing) {
  runPropertyStoreContract('PostgreSQL', async (clock) => {
    const { pool, drop } = await freshSchema();
    const store = await PostgresPropertyStore.open(pool, { clock });
    return { store, dispose: drop };
  });
}

describe.skipIf(pgMissing !== undefined)('PostgresPropertyStore specifics', () => {
  it('answers a wildcard listing among 10,000 rows with an index range scan on key, not a Seq Scan', async () => {
    const { pool, drop } = await freshSchema();
    try {
      await PostgresPropertyStore.open(pool);
      await pool.query(`INSERT INTO property (uuid, key, type, created)
        SELECT 'u' || i, 'global/app/' || chr(97 + i % 26) || '/' || i, 'text/plain', 1
        FROM generate_series(1, 10000) AS i`);
      // VACUUM sets the visibility map, as autovacuum does on a live database, so key-only reads can skip the heap.
      await pool.query('VACUUM ANALYZE property');
      const ranges = scanRanges(compileKeyPattern('global/app/x/**'), 'all');
      const range = ranges.find((r) => 'from' in r) as { from: string; to?: string };
      expect(range).toEqual({ from: 'global/app/x/', to: 'global/app/x0' });
      const explain = async (columns: string, limit?: number) => {
        const { sql, params } = rangeStatement(columns, { ...range, inclusive: true }, 0, limit);
        const plan = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
        return plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      };
      const plans = {
        'list (whole range)': await explain(PG_PROPERTY_COLUMNS),
        'list (a page of 500, when a limit applies)': await explain(PG_PROPERTY_COLUMNS, 500),
        keys: await explain('key'),
      };
      for (const [what, plan] of Object.entries(plans)) {
        console.log(`EXPLAIN ${what} of global/app/x/**:\n${plan}`);
        // An index range scan on key: a B-tree (or bitmap) scan of property_key bounded on both sides.
        expect(plan).toMatch(/(Index Only Scan|Index Scan|Bitmap Index Scan) (using|on) property_key/);
        expect(plan).toMatch(
          /Index Cond: \(\(key >= 'global\/app\/x\/'::text\) AND \(key < 'global\/app\/x0'::text\)\)/,
        );
        expect(plan).not.toMatch(/Seq Scan/);
      }
      // Key-only reads come straight off the index (it includes expires_at), in key order: no sort.
      expect(plans.keys).toMatch(/Index Only Scan using property_key/);
      expect(plans.keys).not.toMatch(/Sort/);
      const store = await PostgresPropertyStore.open(pool);
      const listed = await store.keys({ pattern: 'global/app/x/**' });
      expect(listed).toHaveLength(384); // i % 26 === 23 for i in 1..10,000;
      expect(listed).toEqual([...listed].sort());
    } finally {
      await drop();
    }
  }, 30_000);

  it('reads a page of a level among 100,000 rows with one index seek per entry, not the whole level', async () => {
    const { pool, drop } = await freshSchema();
    try {
      const store = await PostgresPropertyStore.open(pool);
      // 50,000 keys in the level, and a sub-folder of 50,000 more sorting among them.
      await pool.query(`INSERT INTO property (uuid, key, type, created)
        SELECT 'u' || i, 'global/big/' || lpad(i::text, 6, '0'), 'text/plain', 1
        FROM generate_series(1, 50000) AS i`);
      await pool.query(`INSERT INTO property (uuid, key, type, created)
        SELECT 'f' || i, 'global/big/000050x/' || i, 'text/plain', 1 FROM generate_series(1, 50000) AS i`);
      await pool.query('VACUUM ANALYZE property');
      const { sql, params } = levelScanStatement('global/big/', 'global/big/', 101, 0);
      const explained = await pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`,
        params,
      );
      const plan = explained.rows.map((r) => r['QUERY PLAN']).join('\n');
      console.log(`EXPLAIN ANALYZE of a level page of 101 among 100,000 rows:\n${plan}`);
      expect(plan).not.toMatch(/Seq Scan/);
      // Every scan of property is a seek on property_key that stops at its first live row.
      const scans = [
        ...plan.matchAll(
          /Index Only Scan using property_key on property.*\(actual rows=(\d+) loops=(\d+)\)/g,
        ),
      ];
      expect(scans.length).toBeGreaterThan(0);
      const read = scans.reduce((sum, [, rows, loops]) => sum + Number(rows) * Number(loops), 0);
      expect(read).toBeLessThanOrEqual(101);

      const time = async <T>(work: () => Promise<T>) => {
        const started = performance.now();
        const result = await work();
        return { result, ms: performance.now() - started };
      };
      const page = await time(() => store.childrenPage({ parent: 'global/big', limit: 100 }));
      const whole = await time(() => store.children('global/big'));
      console.log(
        `A page of 100 of a level of 50,001 entries: ${page.ms.toFixed(1)} ms; the whole level: ${whole.ms.toFixed(1)} ms`,
      );
      expect(page.result.children).toEqual(whole.result.slice(0, 100));
      expect(page.result.children).toContain('global/big/000050x/');
      expect(whole.result).toHaveLength(50_001);
    } finally {
      await drop();
    }
  }, 60_000);

  it('migrates once when two instances start at once', async () => {
    const { pool, drop } = await freshSchema();
    const other = new pg.Pool({ connectionString: postgres!.url, max: 2, options: pool.options.options });
    try {
      const applied = await Promise.all([
        migratePostgres(pool, 'property', POSTGRES_PROPERTY_MIGRATIONS),
        migratePostgres(other, 'property', POSTGRES_PROPERTY_MIGRATIONS),
      ]);
      expect(applied.sort()).toEqual([0, POSTGRES_PROPERTY_MIGRATIONS.length]);
      const recorded = await pool.query("SELECT version FROM schema_migrations WHERE module = 'property'");
      expect(recorded.rows).toEqual(POSTGRES_PROPERTY_MIGRATIONS.map((m) => ({ version: m.version })));
      expect(await migratePostgres(other, 'property', POSTGRES_PROPERTY_MIGRATIONS)).toBe(0);
    } finally {
      await other.end();
      await drop();
    }
  });

  it('creates a key written by two instances at once once, the other updating it', async () => {
    const { pool, drop } = await freshSchema();
    const other = new pg.Pool({ connectionString: postgres!.url, max: 2, options: pool.options.options });
    try {
      const a = await PostgresPropertyStore.open(pool);
      const b = await PostgresPropertyStore.open(other);
      for (let round = 0; round < 10; round++) {
        const key = `global/race/${round}`;
        const results = await Promise.all([
          a.save({ key, value: 'a' }, { ifExists: 'update' }),
          b.save({ key, value: 'b' }, { ifExists: 'update' }),
        ]);
        expect(results.map((r) => r.result).sort()).toEqual(['create', 'update']);
        expect((await a.get(key))!.version).toBe(2);
      }
    } finally {
      await other.end();
      await drop();
    }
  });

  it('fails a streamed upload with PROPERTY_NOT_FOUND when its property is deleted meanwhile', async () => {
    const { pool, drop } = await freshSchema();
    try {
      const store = await PostgresPropertyStore.open(pool);
      await store.save({ key: 'global/doc', value: 'x' });
      const source = (async function* () {
        yield new Uint8Array([1]);
        await store.delete('global/doc');
        yield new Uint8Array([2]);
      })();
      await expect(store.attachments.write('global/doc', 'f', source)).rejects.toMatchObject({
        code: 'PROPERTY_NOT_FOUND',
      });
      const left = await pool.query('SELECT count(*)::int AS n FROM property_attachment');
      expect(left.rows[0].n).toBe(0);
    } finally {
      await drop();
    }
  });

  it('lets one of two concurrent compare-and-swap updates win', async () => {
    const { pool, drop } = await freshSchema();
    try {
      const a = await PostgresPropertyStore.open(pool);
      await a.save({ key: 'global/n', value: '0' });
      const outcomes = await Promise.allSettled(
        ['1', '2', '3'].map((value) => a.update('global/n', { value }, { expectedVersion: 1 })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect((await a.get('global/n'))!.version).toBe(2);
    } finally {
      await drop();
    }
  });
});
