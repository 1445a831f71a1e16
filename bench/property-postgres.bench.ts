/**
 * The PostgreSQL property store beside the SQLite one, in the same run on the same machine: a `**` listing
 * that matches 1,000 of 100,000 properties, and single-property writes (updates of existing keys, saves of
 * new ones), one at a time and 8 at once. Both stores commit durably, as shipped: SQLite in a WAL file opened
 * as the server opens it (synchronous = FULL), PostgreSQL on a throwaway cluster with fsync on, in the same
 * temporary folder's file system.
 * Rows read "PostgreSQL vs SQLite": the ratio is PG / SQLite (above 1: PostgreSQL is faster).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { PropertyStore } from '../shared/property';
import { openDatabase, type SqliteDatabase } from '../server/db';
import { SqlitePropertyStore } from '../server/store';
import { OutboxAnnouncer } from '../server/events/outbox-announcer';
import { migrateEventOutbox, outboxWriter } from '../server/events/postgres-event-outbox';
import { PostgresPropertyStore } from '../server/store/postgres/postgres-property-store';
import { postgresMissingReason, startTestPostgres } from '../server/testing/postgres';
import { type BenchReport, median } from './bench-report';
import { compareAsync } from './support/compare-async';

const TOTAL = 100_000;
const MATCHED = 1_000;
const PATTERN = 'global/app/bench/**';
const SQLITE = 'SQLite (WAL file, synchronous=FULL)';

interface Row {
  uuid: string;
  key: string;
  value: string;
  created: number;
}

/** 99,000 properties of 99 other apps, and 1,000 under global/app/bench/. */
function rows(): Row[] {
  const created = Date.now();
  const value = (i: number) => JSON.stringify({ i, customer: `customer ${i}`, total: i * 3.5 });
  const all: Row[] = [];
  for (let i = 0; i < MATCHED; i++) {
    all.push({ uuid: randomUUID(), key: `global/app/bench/order/${pad(i)}`, value: value(i), created });
  }
  for (let i = 0; i < TOTAL - MATCHED; i++) {
    const app = `app-${String(Math.floor(i / 1_000)).padStart(3, '0')}`;
    all.push({
      uuid: randomUUID(),
      key: `global/app/${app}/order/${pad(i % 1_000)}`,
      value: value(i),
      created,
    });
  }
  return all;
}

const pad = (i: number) => String(i).padStart(5, '0');

function fillSqlite(db: SqliteDatabase, all: Row[]): void {
  const insert = db.prepare(
    `INSERT INTO property (uuid, key, value, type, created, version) VALUES (?, ?, ?, 'application/json', ?, 1)`,
  );
  db.transaction(() => {
    for (const r of all) insert.run(r.uuid, r.key, r.value, r.created);
  }).immediate();
}

/** Multi-row inserts of 10,000 rows (arrays unnested server-side), then VACUUM ANALYZE as autovacuum would. */
async function fillPostgres(pool: pg.Pool, all: Row[]): Promise<void> {
  for (let at = 0; at < all.length; at += 10_000) {
    const batch = all.slice(at, at + 10_000);
    await pool.query(
      `INSERT INTO property (uuid, key, value, type, created, version)
       SELECT u, k, v, 'application/json', c, 1 FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS t(u, k, v, c)`,
      [
        batch.map((r) => r.uuid),
        batch.map((r) => r.key),
        batch.map((r) => r.value),
        batch.map((r) => r.created),
      ],
    );
  }
  await pool.query('VACUUM ANALYZE property');
}

/** Operations per second with `inFlight` calls of `op(i)` running at once, for about `ms`. */
async function concurrentRate(
  op: (i: number) => Promise<unknown>,
  inFlight: number,
  ms = 1_000,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (performance.now() - started < ms) await op(next++);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return (next * 1000) / (performance.now() - started);
}

/** Both stores, measured alternately in rounds: median ops/s of each. */
async function side(
  pgStore: PropertyStore,
  sqliteStore: PropertyStore,
  op: (store: PropertyStore, i: number) => Promise<unknown>,
  inFlight: number,
): Promise<{ pg: number; sqlite: number }> {
  const pgRates: number[] = [];
  const sqliteRates: number[] = [];
  // Short alternating rounds, which goes first swapped each time: a neighbour's burst on the shared machine
  // hits both stores alike.
  for (let round = 0; round < 10; round++) {
    const pg = () => concurrentRate((i) => op(pgStore, i), inFlight, 400);
    const sqlite = () => concurrentRate((i) => op(sqliteStore, i), inFlight, 400);
    if (round % 2 === 0) {
      pgRates.push(await pg());
      sqliteRates.push(await sqlite());
    } else {
      sqliteRates.push(await sqlite());
      pgRates.push(await pg());
    }
  }
  return { pg: median(pgRates.slice(1)), sqlite: median(sqliteRates.slice(1)) }; // round 0 warms up
}

async function benchStores(report: BenchReport, pgStore: PropertyStore, sqliteStore: PropertyStore) {
  for (const store of [pgStore, sqliteStore]) {
    const listed = await store.list({ pattern: PATTERN });
    if (listed.length !== MATCHED) throw new Error(`${PATTERN} listed ${listed.length}, not ${MATCHED}`);
  }
  const lists = await compareAsync(
    () => pgStore.list({ pattern: PATTERN }),
    () => sqliteStore.list({ pattern: PATTERN }),
  );
  report.add({
    name: `PostgreSQL property.list ${PATTERN} (1,000 of 100,000)`,
    value: lists.ours,
    unit: 'lists/s',
    baseline: SQLITE,
    baselineValue: lists.baseline,
  });

  let run = 0;
  const update = (store: PropertyStore, i: number) =>
    store.update(`global/app/app-${String(i % 99).padStart(3, '0')}/order/${pad((i * 7) % 1_000)}`, {
      value: JSON.stringify({ i, run }),
    });
  let saved = 0;
  const saveNew = (store: PropertyStore) => {
    const n = saved++;
    return store.save({ key: `global/app/new/order/${pad(n)}`, value: JSON.stringify({ n }) });
  };
  for (const inFlight of [1, 8]) {
    const how = inFlight === 1 ? 'one at a time' : `${inFlight} at once`;
    run++;
    const updates = await side(pgStore, sqliteStore, update, inFlight);
    report.add({
      name: `PostgreSQL update of an existing key (${how})`,
      value: updates.pg,
      unit: 'writes/s',
      baseline: SQLITE,
      baselineValue: updates.sqlite,
    });
    const saves = await side(pgStore, sqliteStore, saveNew, inFlight);
    report.add({
      name: `PostgreSQL save of a new key (${how})`,
      value: saves.pg,
      unit: 'writes/s',
      baseline: SQLITE,
      baselineValue: saves.sqlite,
    });
  }
}

/**
 * The server's own write path on PostgreSQL: each write also puts its event into the outbox, in its
 * transaction (no common lock), and announces it after the commit (coalesced NOTIFY). Against the same store
 * without it.
 */
async function benchOutbox(report: BenchReport, pool: pg.Pool, plain: PropertyStore) {
  await migrateEventOutbox(pool);
  const announcer = new OutboxAnnouncer(pool, (error) => console.error(error));
  const withOutbox = await PostgresPropertyStore.open(pool, {
    beforeCommit: outboxWriter({ notify: 'none', carrier: announcer }),
    afterCommit: () => announcer.committed(),
  });
  let n = 0;
  const update = (store: PropertyStore, i: number) =>
    store.update(`global/app/app-${String(i % 99).padStart(3, '0')}/order/${pad((i * 11) % 1_000)}`, {
      value: JSON.stringify({ i, n: n++ }),
    });
  for (const inFlight of [1, 8]) {
    const how = inFlight === 1 ? 'one at a time' : `${inFlight} at once`;
    const rates = await side(withOutbox, plain, update, inFlight);
    report.add({
      name: `PostgreSQL update with its event in the outbox, as the server writes (${how})`,
      value: rates.pg,
      unit: 'writes/s',
      baseline: 'the same update without the outbox',
      baselineValue: rates.sqlite,
    });
  }
  announcer.close();
}

export default async function (report: BenchReport): Promise<void> {
  const missing = postgresMissingReason();
  if (missing) {
    console.log(`  skipped: ${missing}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'pipework-bench-pg-'));
  const postgres = await startTestPostgres({ durable: true });
  const pool = new pg.Pool({ connectionString: postgres.url, max: 10 });
  const db = openDatabase(join(dir, 'pipework.db'));
  try {
    const sqliteStore = new SqlitePropertyStore(db);
    const pgStore = await PostgresPropertyStore.open(pool);
    const all = rows();
    const started = performance.now();
    fillSqlite(db, all);
    await fillPostgres(pool, all);
    db.pragma('wal_checkpoint(TRUNCATE)');
    console.log(
      `  filled both stores with ${TOTAL.toLocaleString('en-US')} properties in ${Math.round(performance.now() - started)} ms`,
    );
    const fsync = (await pool.query<{ fsync: string }>('SHOW fsync')).rows[0]!.fsync;
    if (fsync !== 'on') throw new Error(`PostgreSQL fsync is ${fsync}, not on`);
    await benchStores(report, pgStore, sqliteStore);
    await benchOutbox(report, pool, pgStore);
  } finally {
    db.close();
    await pool.end();
    postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
