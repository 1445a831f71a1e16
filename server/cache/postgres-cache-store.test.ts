// The PostgreSQL cache on a real throwaway cluster: the CacheStore contract, and two pools (two instances)
// sharing one schema: what one puts the other reads, and the bounds hold while both put at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freshTestSchema,
  postgresMissingReason,
  startTestPostgres,
  type TestPostgres,
} from '../testing/postgres';
import type { CacheConfig } from './cache-config';
import { json, parsed, runCacheStoreContract } from './cache-store.contract';
import { PostgresCacheStore } from './postgres-cache-store';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL cache tests skipped: ${pgMissing}`);

let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!pgMissing) postgres = await startTestPostgres();
}, 60_000);

afterAll(() => {
  postgres?.stop();
});

/** Pools (one per instance) on a fresh, empty schema of the throwaway cluster, and how to drop it. */
async function freshSchema(instances: number) {
  const schema = await freshTestSchema(postgres!.url, 'cache');
  return { pools: Array.from({ length: instances }, () => schema.pool()), drop: schema.drop };
}

if (!pgMissing) {
  runCacheStoreContract('PostgreSQL', async (bounds, clock) => {
    const { pools, drop } = await freshSchema(1);
    const store = await PostgresCacheStore.open(pools[0]!, bounds, { clock });
    return { store, stats: () => store.stats(), dispose: drop };
  });
}

describe.skipIf(pgMissing !== undefined)('PostgresCacheStore shared by two instances', () => {
  const openBoth = async (bounds: CacheConfig) => {
    const { pools, drop } = await freshSchema(2);
    const [a, b] = await Promise.all(pools.map((pool) => PostgresCacheStore.open(pool, bounds)));
    /** What the table holds, counted from its rows rather than the tally. */
    const counted = async () => {
      const { rows } = await pools[0]!.query<{ entries: number; bytes: number }>(
        'SELECT count(*)::float8 AS entries, coalesce(sum(size), 0)::float8 AS bytes FROM cache_entry',
      );
      return rows[0]!;
    };
    return { a: a!, b: b!, counted, drop };
  };

  it('reads through one instance what the other put, and a read on one counts as use on the other', async () => {
    const { a, b, drop } = await openBoth({ maxEntries: 3, maxBytes: 1_000_000 });
    try {
      await a.put('acme', 'greeting', json({ hello: 'world' }), 60_000);
      expect(parsed(await b.get('acme', 'greeting'))).toEqual({ hello: 'world' });
      for (const k of ['x', 'y']) await a.put('acme', k, json(k), 60_000);
      await b.get('acme', 'greeting'); // the oldest put, now the most recently used
      await a.put('acme', 'z', json('z'), 60_000);
      expect(await b.has('acme', 'x')).toBe(false);
      expect(await b.has('acme', 'greeting')).toBe(true);
      expect(await b.remove('acme', 'greeting')).toBe(true);
      expect(await a.has('acme', 'greeting')).toBe(false);
    } finally {
      await drop();
    }
  });

  it('keeps both bounds at every commit while two instances put at once', async () => {
    const bounds = { maxEntries: 20, maxBytes: 3_000 };
    const { a, b, counted, drop } = await openBoth(bounds);
    try {
      let putting = true;
      const samples: { entries: number; bytes: number }[] = [];
      const watch = (async () => {
        while (putting) samples.push(await counted());
      })();
      const writer = async (store: PostgresCacheStore, name: string, lane: number) => {
        for (let i = 0; i < 40; i++) {
          // Sizes from 24 to 424 bytes; keys overlap between instances, so some puts replace the other's.
          const key = `k${(i * 7 + lane) % 60}`;
          await store.put(
            name === 'a' ? 't1' : 't2',
            key,
            json('v'.repeat(10 + ((i * 37 + lane) % 200))),
            60_000,
          );
        }
      };
      await Promise.all([0, 1, 2].flatMap((lane) => [writer(a, 'a', lane), writer(b, 'b', lane)]));
      putting = false;
      await watch;
      const held = await counted();
      expect(await a.stats()).toEqual(held); // the tally agrees with the rows
      expect(held.entries).toBeGreaterThan(0);
      expect(samples.length).toBeGreaterThan(0);
      for (const sample of [...samples, held]) {
        expect(sample.entries).toBeLessThanOrEqual(bounds.maxEntries);
        expect(sample.bytes).toBeLessThanOrEqual(bounds.maxBytes);
      }
    } finally {
      await drop();
    }
  });
});
