// The scheduler on its own, on a real SQLite store and job tables, with a clock the test moves: when jobs
// come due, once per tick across two schedulers sharing the tables, as whom, and how changes replace them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteSqlPort } from '../db/sql';
import { openDatabase } from '../db';
import { createTestPropertyService, makePrincipal, type TestPropertyService } from '../store/test-fixtures';
import { JobScheduler } from './job-scheduler';
import { openJobStore, type JobStore } from './index';

const ann = makePrincipal('ann', { developer: true });
const principals = new Map([['ann', ann]]);
const KEY = 'global/app/a/pipeline/tick';
const EVERY_MINUTE = `pipeline:\n  - job:\n      schedule: "* * * * *"\n  - log: tick\n`;

let t: TestPropertyService;
let store: JobStore;
let closeJobs: () => void;

beforeEach(async () => {
  vi.useFakeTimers({ now: Date.parse('2026-01-01T10:00:30Z') });
  t = createTestPropertyService();
  const db = openDatabase(':memory:');
  store = await openJobStore(new SqliteSqlPort(db));
  closeJobs = () => db.close();
});
afterEach(() => {
  vi.useRealTimers();
  t.close();
  closeJobs();
});

/** Lets the bus deliver the events of the writes so far (it delivers asynchronously). */
const settle = () => vi.advanceTimersByTimeAsync(0);

function scheduler(instance: string, ran: { instance: string; at: string; as: string }[]) {
  return new JobScheduler({
    properties: t.service,
    store,
    instance,
    principalOf: async (uuid) => principals.get(uuid) ?? null,
    run: async (job, principal, scheduled) => {
      ran.push({ instance, at: new Date(scheduled).toISOString(), as: principal.uuid });
      return job.pipelineKey.endsWith('fails') ? { ok: false, error: 'boom' } : { ok: true };
    },
    logger: { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() },
  });
}

describe('JobScheduler', () => {
  it('runs a job at each due time, once per tick although two schedulers share the job tables', async () => {
    const ran: { instance: string; at: string; as: string }[] = [];
    const a = scheduler('a', ran);
    const b = scheduler('b', ran);
    await a.start();
    await b.start();
    await t.service.create(ann, { key: KEY, value: EVERY_MINUTE });
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    expect(ran.map((r) => r.at)).toEqual([
      '2026-01-01T10:01:00.000Z',
      '2026-01-01T10:02:00.000Z',
      '2026-01-01T10:03:00.000Z',
    ]);
    expect(new Set(ran.map((r) => r.as))).toEqual(new Set(['ann']));
    const status = await a.status(KEY);
    expect(status).toMatchObject({
      pipelineKey: KEY,
      schedule: '* * * * *',
      cron: '0 * * * * *',
      lastRun: '2026-01-01T10:03:00.000Z',
      lastDuration: '00:00:00.000',
      lastStatus: 'succeeded',
      running: true,
      nextRun: '2026-01-01T10:04:00.000Z',
    });
    await a.stop();
    await b.stop();
  });

  it('replaces the job when the pipeline changes and removes it when the pipeline goes', async () => {
    const ran: { instance: string; at: string; as: string }[] = [];
    const a = scheduler('a', ran);
    await a.start();
    await t.service.create(ann, { key: KEY, value: EVERY_MINUTE });
    await t.service.create(ann, { key: KEY, value: EVERY_MINUTE.replace('* * * * *', 'EVERY_15_MIN') });
    await settle();
    expect((await a.status(KEY))?.nextRun).toBe('2026-01-01T10:15:00.000Z');
    await vi.advanceTimersByTimeAsync(14 * 60_000);
    expect(ran).toEqual([]);
    await t.service.delete(ann, KEY);
    await settle();
    expect(await a.status(KEY)).toBeNull();
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(ran).toEqual([]);
    await a.stop();
  });

  it('job.stop pauses a job on every scheduler until the pipeline is stored again', async () => {
    const ran: { instance: string; at: string; as: string }[] = [];
    const a = scheduler('a', ran);
    const b = scheduler('b', ran);
    await a.start();
    await b.start();
    await t.service.create(ann, { key: KEY, value: EVERY_MINUTE });
    await settle();
    expect(await a.stopJob(KEY, 'ann')).toBe(true);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(ran).toEqual([]);
    expect((await b.status(KEY))?.running).toBe(false);
    await t.service.create(ann, { key: KEY, value: `${EVERY_MINUTE}  - log: again\n` });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ran).toHaveLength(1);
    await a.stop();
    await b.stop();
  });

  it('does not register a pipeline with two job commands or a bad cron, and says why', async () => {
    const a = scheduler('a', []);
    await a.start();
    const two = `pipeline:\n  - job: HOURLY\n  - log: x\n  - job: DAILY\n`;
    await t.service.create(ann, { key: 'global/app/a/pipeline/two', value: two });
    await t.service.create(ann, {
      key: 'global/app/a/pipeline/bad',
      value: `pipeline:\n  - job: "61 * * * *"\n`,
    });
    await settle();
    await expect(a.status('global/app/a/pipeline/two')).rejects.toThrow(/one job command only/);
    await expect(a.status('global/app/a/pipeline/bad')).rejects.toThrow(/not a valid cron expression/);
    expect(a.jobs()).toEqual([]);
    await a.stop();
  });

  it('skips the ticks that fell into downtime and runs from the next due time on', async () => {
    const ran: { instance: string; at: string; as: string }[] = [];
    await t.service.create(ann, { key: KEY, value: EVERY_MINUTE });
    vi.setSystemTime(Date.parse('2026-01-01T12:00:10Z')); // two hours without a scheduler
    const a = scheduler('a', ran);
    await a.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ran.map((r) => r.at)).toEqual(['2026-01-01T12:01:00.000Z']);
    await a.stop();
  });
});
