/**
 * Property history and property.query, each against a baseline in the same run: property updates per second
 * with history on against off (goal at least 0.7), and a property.query over 100,000 JSON properties against
 * the same query written by hand in raw SQL (goal at most 1.5 times the time), on SQLite and on PostgreSQL.
 * Both databases commit durably, as shipped.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import type { PropertyStore } from '../shared/property';
import { openDatabase } from '../server/db';
import { EventBus } from '../server/events/event-bus';
import { PostgresPropertyStore } from '../server/store/postgres/postgres-property-store';
import { PropertyService } from '../server/store/property-service';
import { PropertyQueryService } from '../server/store/query/property-query';
import { SqlitePropertyStore } from '../server/store/sqlite/sqlite-property-store';
import { makePrincipal } from '../server/store/test-fixtures';
import { freshTestSchema, postgresMissingReason, startTestPostgres } from '../server/testing/postgres';
import { type BenchReport, median } from './bench-report';
import { compareAsync } from './support/compare-async';

const TOTAL = 100_000;
const admin = makePrincipal('bench-admin', { admin: true });
const OFF = { maxVersions: 0, maxDays: 0 };

async function updatesPerSecond(store: PropertyStore, keys: string[], ms: number): Promise<number> {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    await store.update(keys[n % keys.length]!, { value: JSON.stringify({ n, at: Date.now() }) });
    n++;
  }
  return (n * 1000) / (performance.now() - start);
}

async function benchHistory(report: BenchReport, label: string, on: PropertyStore, off: PropertyStore) {
  const keys = Array.from({ length: 100 }, (_, i) => `global/app/bench/history/k${i}`);
  for (const store of [on, off]) for (const key of keys) await store.save({ key, value: '{}' });
  const onRates: number[] = [];
  const offRates: number[] = [];
  // Many short rounds, the order swapped each time: a neighbour's burst on a shared machine hits both alike.
  for (let round = 0; round < 10; round++) {
    if (round % 2 === 0) {
      onRates.push(await updatesPerSecond(on, keys, 400));
      offRates.push(await updatesPerSecond(off, keys, 400));
    } else {
      offRates.push(await updatesPerSecond(off, keys, 400));
      onRates.push(await updatesPerSecond(on, keys, 400));
    }
  }
  report.add({
    name: `${label} property updates, history on (50 versions)`,
    value: median(onRates.slice(1)),
    unit: 'updates/s',
    baseline: 'same store, history off',
    baselineValue: median(offRates.slice(1)),
  });
}

const value = (i: number) => JSON.stringify({ i, customer: `customer ${i % 1000}`, total: i * 3.5 });
const keyOf = (i: number) => `global/app/app-${String(Math.floor(i / 1000)).padStart(3, '0')}/data/${i}`;

async function benchQuery(
  report: BenchReport,
  label: string,
  store: PropertyStore,
  raw: () => Promise<unknown>,
) {
  const service = new PropertyQueryService(new PropertyService({ store, events: new EventBus() }));
  const ours = () =>
    service.query(admin, {
      select: 'count(*)',
      from: 'global/app/**',
      where: "value::json ->> 'customer' = :c",
      params: { c: 'customer 7' },
    });
  const got = await ours();
  if (JSON.stringify(got) !== JSON.stringify([100]))
    throw new Error(`property.query counted ${JSON.stringify(got)}`);
  const rates = await compareAsync(ours, raw, 3, 1500);
  report.add({
    name: `${label} property.query over 100,000 JSON properties`,
    value: rates.ours,
    unit: 'queries/s',
    baseline: 'the same query in raw SQL',
    baselineValue: rates.baseline,
  });
}

async function sqliteSide(report: BenchReport): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pipework-bench-history-'));
  const dbOn = openDatabase(join(dir, 'on.sqlite'));
  const dbOff = openDatabase(join(dir, 'off.sqlite'));
  try {
    const on = new SqlitePropertyStore(dbOn);
    const off = new SqlitePropertyStore(dbOff, { history: OFF });
    await benchHistory(report, 'SQLite', on, off);
    const insert = dbOn.prepare(
      `INSERT INTO property (uuid, key, value, type, created, version) VALUES (?, ?, ?, 'application/json', ?, 1)`,
    );
    dbOn
      .transaction(() => {
        for (let i = 0; i < TOTAL; i++) insert.run(randomUUID(), keyOf(i), value(i), Date.now());
      })
      .immediate();
    const rawDb = openDatabase(join(dir, 'on.sqlite'));
    const rawStmt = rawDb.prepare(
      `SELECT count(*) FROM property WHERE key >= 'global/app/' AND key < 'global/app0'
       AND (expires_at IS NULL OR expires_at > ?) AND type = 'application/json' AND json(value) ->> 'customer' = ?`,
    );
    await benchQuery(report, 'SQLite', on, async () => rawStmt.all(Date.now(), 'customer 7'));
    await on.close();
    rawDb.close();
  } finally {
    dbOn.close();
    dbOff.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresSide(report: BenchReport): Promise<void> {
  const missing = postgresMissingReason();
  if (missing) {
    console.log(`  (PostgreSQL rows skipped: ${missing})`);
    return;
  }
  // Durable, as shipped (fsync on), like the SQLite side (synchronous=FULL): a commit waits for the disk.
  const postgres = await startTestPostgres({ durable: true });
  try {
    const a = await freshTestSchema(postgres.url, 'hon');
    const b = await freshTestSchema(postgres.url, 'hoff');
    const poolOn: Pool = a.pool();
    const on = await PostgresPropertyStore.open(poolOn);
    const off = await PostgresPropertyStore.open(b.pool(), { history: OFF });
    await benchHistory(report, 'PostgreSQL', on, off);
    for (let at = 0; at < TOTAL; at += 10_000) {
      const ids = Array.from({ length: 10_000 }, (_, j) => at + j);
      await poolOn.query(
        `INSERT INTO property (uuid, key, value, type, created, version)
         SELECT u, k, v, 'application/json', $4, 1 FROM unnest($1::text[], $2::text[], $3::text[]) AS t(u, k, v)`,
        [ids.map(() => randomUUID()), ids.map(keyOf), ids.map(value), Date.now()],
      );
    }
    await poolOn.query('VACUUM ANALYZE property');
    const raw = () =>
      poolOn.query(
        `SELECT count(*) FROM property WHERE key >= 'global/app/' AND key < 'global/app0'
         AND (expires_at IS NULL OR expires_at > $1) AND type = 'application/json' AND value::json ->> 'customer' = $2`,
        [Date.now(), 'customer 7'],
      );
    await benchQuery(report, 'PostgreSQL', on, raw);
    await a.drop();
    await b.drop();
  } finally {
    postgres.stop();
  }
}

export default async function (report: BenchReport): Promise<void> {
  await sqliteSide(report);
  await postgresSide(report);
}
