// Periodic jobs once per installation: the in-process lock, and the advisory lock on a real throwaway
// PostgreSQL cluster shared by two pools (two instances), including two TTL cleanups on one schema.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventBus, type PipeworkEvent } from '../events/event-bus';
import { PropertyService } from '../store/property-service';
import { PostgresPropertyStore } from '../store/postgres/postgres-property-store';
import { makePrincipal } from '../store/test-fixtures';
import { TTL_CLEANUP_JOB, startTtlCleanup } from '../store/ttl-cleanup';
import { postgresMissingReason, startTestPostgres, type TestPostgres } from '../testing/postgres';
import { InProcessJobLock, PostgresJobLock, type JobLock, type JobRun } from './installation-lock';

const pgMissing = postgresMissingReason();
if (pgMissing) console.warn(`PostgreSQL job lock tests skipped: ${pgMissing}`);

/** A promise the test opens when it chooses, to keep a job running meanwhile. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Two passes of one job at once on two locks (one each when they are two instances): which ran. */
async function raceOneJob(a: JobLock, b: JobLock): Promise<JobRun<string>[]> {
  const hold = gate();
  const runs = [
    a.runExclusive('nightly', async () => (await hold.wait, 'a')),
    b.runExclusive('nightly', async () => (await hold.wait, 'b')),
  ];
  await Promise.race(runs); // the one that found the job running answers without waiting
  hold.open();
  return Promise.all(runs);
}

describe('InProcessJobLock', () => {
  it('never overlaps two passes of one job, runs different jobs side by side, and runs again after an error', async () => {
    const lock = new InProcessJobLock();
    const results = await raceOneJob(lock, lock);
    expect(results).toEqual([{ ran: true, value: 'a' }, { ran: false }]);

    const hold = gate();
    const started: string[] = [];
    const both = ['x', 'y'].map((job) =>
      lock.runExclusive(job, async () => (started.push(job), await hold.wait, job)),
    );
    await vi.waitFor(() => expect(started).toEqual(['x', 'y']));
    hold.open();
    expect(await Promise.all(both)).toEqual([
      { ran: true, value: 'x' },
      { ran: true, value: 'y' },
    ]);

    await expect(lock.runExclusive('nightly', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await lock.runExclusive('nightly', async () => 'again')).toEqual({ ran: true, value: 'again' });
  });
});

describe.skipIf(pgMissing !== undefined)('PostgresJobLock (two pools on one database)', () => {
  let postgres: TestPostgres;
  let a: pg.Pool;
  let b: pg.Pool;
  const schema = `lock_${process.pid}`;

  beforeAll(async () => {
    postgres = await startTestPostgres();
    const admin = new pg.Client(postgres.url);
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const options = `-c search_path=${schema}`;
    a = new pg.Pool({ connectionString: postgres.url, max: 4, options });
    b = new pg.Pool({ connectionString: postgres.url, max: 4, options });
  }, 60_000);

  afterAll(async () => {
    await a?.end();
    await b?.end();
    postgres?.stop();
  });

  const advisoryLocksHeld = async () =>
    Number((await a.query("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'")).rows[0].n);

  it('runs one pass of a job at a time across instances', async () => {
    for (let round = 0; round < 5; round++) {
      const results = await raceOneJob(new PostgresJobLock(a), new PostgresJobLock(b));
      expect(results.filter((r) => r.ran)).toHaveLength(1);
      expect(results.filter((r) => !r.ran)).toHaveLength(1);
    }
    expect(await advisoryLocksHeld()).toBe(0);
  });

  it('runs different jobs side by side', async () => {
    const hold = gate();
    const started: string[] = [];
    const both = [
      new PostgresJobLock(a).runExclusive('x', async () => (started.push('x'), await hold.wait, 'x')),
      new PostgresJobLock(b).runExclusive('y', async () => (started.push('y'), await hold.wait, 'y')),
    ];
    await vi.waitFor(() => expect(started.sort()).toEqual(['x', 'y']));
    expect(await advisoryLocksHeld()).toBe(2);
    hold.open();
    expect(await Promise.all(both)).toEqual([
      { ran: true, value: 'x' },
      { ran: true, value: 'y' },
    ]);
  });

  it('releases the lock and the connection when the pass fails', async () => {
    const lockA = new PostgresJobLock(a);
    await expect(lockA.runExclusive('nightly', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await advisoryLocksHeld()).toBe(0);
    expect(a.totalCount).toBe(a.idleCount); // the connection went back to the pool
    expect(await new PostgresJobLock(b).runExclusive('nightly', async () => 'b')).toEqual({
      ran: true,
      value: 'b',
    });
  });

  /** Rows stored under a prefix, expired or not (a listing hides the expired ones). */
  const rowsUnder = async (prefix: string) =>
    Number(
      (await b.query('SELECT count(*) AS n FROM property WHERE starts_with(key, $1)', [prefix])).rows[0].n,
    );

  it('two TTL cleanups on two pools sharing one schema delete each expired property once', async () => {
    let now = Date.now();
    const clock = () => now;
    const instances = await Promise.all(
      [a, b].map(async (pool) => {
        const events = new EventBus({ clock });
        const seen: PipeworkEvent[] = [];
        events.subscribe((e) => void seen.push(e));
        const store = await PostgresPropertyStore.open(pool, { clock });
        const service = new PropertyService({ store, events });
        const lock = new PostgresJobLock(pool);
        const cleanup = startTtlCleanup(service, { intervalMs: 3_600_000, lock });
        return { events, seen, service, store, lock, cleanup };
      }),
    );
    const [one, two] = instances;
    const alice = makePrincipal('alice');
    for (let i = 0; i < 40; i++) {
      await one.service.create(alice, { key: `global/ttl/${i}`, value: String(i), timeToLive: 1 });
    }
    await one.service.create(alice, { key: 'global/ttl/kept', value: 'kept' });
    now += 61_000;

    // While instance two holds the job, instance one's pass is skipped and deletes nothing.
    const hold = gate();
    const held = two.lock.runExclusive(TTL_CLEANUP_JOB, () => hold.wait);
    await vi.waitFor(async () => expect(await advisoryLocksHeld()).toBe(1));
    expect(await one.cleanup.runOnce()).toBe(0);
    expect(await rowsUnder('global/ttl/')).toBe(41);
    hold.open();
    await held;

    // Both instances tick at once, several times: the 40 go once, in one instance's pass.
    const passes: number[] = [];
    for (let tick = 0; tick < 3; tick++) {
      passes.push(...(await Promise.all(instances.map((i) => i.cleanup.runOnce()))));
    }
    for (const i of instances) i.cleanup.stop();
    await Promise.all(instances.map((i) => i.events.idle()));
    const deleted = instances.flatMap((i) => i.seen).filter((e) => e.eventKey === 'property.deleted');
    expect(deleted).toHaveLength(40);
    const deletedKeys = deleted.map((e) => (e.payload as { origin: { key: string } }).origin.key);
    expect(new Set(deletedKeys).size).toBe(40);
    expect(passes.filter((n) => n > 0)).toEqual([40]);
    expect(await rowsUnder('global/ttl/')).toBe(1);
    expect(await two.store.keys({ pattern: 'global/ttl/*' })).toEqual(['global/ttl/kept']);
  });
});
