/**
 * Runs the stored pipelines that start with `job` at their due times. Every instance indexes them (at start
 * from the store, then from property events, as the `event.listen` dispatcher does) and arms a timer per job;
 * at a due time each instance claims the tick in the job tables (`job-store.ts`) and only the one whose claim
 * went in runs it, so a tick runs once per installation. A job runs as the user who stored its pipeline last.
 *
 * Missed runs (the installation was down, or a timer fired late): no backlog is replayed. A tick whose timer
 * fires late runs once, late; ticks that fell entirely into downtime are skipped, and the next run is the next
 * due time from now. A tick is skipped too while the job's previous run is still going on this instance.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import { isAppPipelineKey, type Property } from '../../shared/property';
import type { Logger } from '../logging/logger';
import type { PropertyService } from '../store/property-service';
import { jobOfProperty, type JobDefinition } from './job-definition';
import type { JobStore, JobTickRecord } from './job-store';

/** What a job run ended with. */
export interface JobRunOutcome {
  ok: boolean;
  error?: string;
}

export interface JobSchedulerOptions {
  properties: PropertyService;
  store: JobStore;
  /** This instance's name in the tick claims. */
  instance: string;
  principalOf: (uuid: string) => Promise<Principal | null>;
  /** Runs a job's pipeline as `principal`, at the tick `scheduled`. */
  run: (job: JobDefinition, principal: Principal, scheduled: number) => Promise<JobRunOutcome>;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  clock?: () => number;
}

/** One job as `job.list` shows it (the real product's fields, and a few more). */
export interface JobStatus {
  pipelineKey: string;
  cron: string | null;
  schedule: string;
  timeZone: string;
  /** ISO time of the last run's tick start in the installation, or null. */
  lastRun: string | null;
  /** `HH:mm:ss.SSS`, or null while none has finished. */
  lastDuration: string | null;
  lastStatus: JobTickRecord['status'] | null;
  lastError: string | null;
  created: string;
  /** False once `job.stop` paused it (until the pipeline is stored again). */
  running: boolean;
  nextRun: string | null;
}

interface Entry {
  job: JobDefinition;
  timer?: NodeJS.Timeout;
  next: number;
  runningHere: boolean;
}

/** The longest a timer may be set for (setTimeout's limit); longer waits re-arm. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** `HH:mm:ss.SSS` of a duration in ms. */
export function formatDuration(ms: number): string {
  const pad = (n: number, w = 2) => String(Math.floor(n)).padStart(w, '0');
  return `${pad(ms / 3_600_000)}:${pad((ms / 60_000) % 60)}:${pad((ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

export class JobScheduler {
  private readonly entries = new Map<string, Entry>();
  /** Pipelines whose `job` is wrong (two of them, a bad schedule): the reason, for `job.status`. */
  private readonly broken = new Map<string, string>();
  private readonly running = new Set<Promise<void>>();
  private unsubscribe?: () => void;
  private stopped = false;
  private readonly clock: () => number;

  constructor(private readonly options: JobSchedulerOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Indexes the stored jobs and follows property events to keep them current. */
  async start(): Promise<void> {
    this.unsubscribe = this.options.properties.events.subscribe((event) => {
      if (!event.eventKey.startsWith('property.')) return;
      const { origin, target } = (event.payload ?? {}) as {
        origin?: Property | null;
        target?: Property | null;
      };
      if (origin && isAppPipelineKey(origin.key)) this.remove(origin.key);
      if (target && isAppPipelineKey(target.key)) this.index(target);
    });
    const stored = await this.options.properties.store.list({ pattern: '**/pipeline/**' });
    for (const property of stored) if (!this.entries.has(property.key)) this.index(property);
  }

  /** Stops the timers; resolves once the runs started here have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    for (const key of [...this.entries.keys()]) this.remove(key);
    await Promise.allSettled([...this.running]);
  }

  /** The registered jobs' definitions. */
  jobs(): JobDefinition[] {
    return [...this.entries.values()].map((e) => e.job);
  }

  /** A job's status, or null when the pipeline is no job (or a broken one: then `PARAM_INVALID`). */
  async status(pipelineKey: string): Promise<JobStatus | null> {
    const entry = this.entries.get(pipelineKey);
    if (!entry) {
      const reason = this.broken.get(pipelineKey);
      if (reason !== undefined)
        throw new PipeworkError('PARAM_INVALID', `'${pipelineKey}' is no job: ${reason}`, {
          key: pipelineKey,
        });
      return null;
    }
    const { job } = entry;
    const [last, stopped] = await Promise.all([
      this.options.store.lastTick(pipelineKey),
      this.options.store.isStopped(job),
    ]);
    return {
      pipelineKey,
      cron: job.schedule.cron,
      schedule: job.schedule.schedule,
      timeZone: job.schedule.timeZone,
      lastRun: last ? new Date(last.started).toISOString() : null,
      lastDuration: last?.finished != null ? formatDuration(last.finished - last.started) : null,
      lastStatus: last?.status ?? null,
      lastError: last?.error ?? null,
      created: new Date(job.created).toISOString(),
      running: !stopped,
      nextRun: Number.isFinite(entry.next) ? new Date(entry.next).toISOString() : null,
    };
  }

  /** Pauses a job in the whole installation until its pipeline is stored again; false when it is no job. */
  async stopJob(pipelineKey: string, by: string | null): Promise<boolean> {
    const entry = this.entries.get(pipelineKey);
    if (!entry) return false;
    await this.options.store.stop(entry.job, this.clock(), by);
    return true;
  }

  private index(property: Property): void {
    this.remove(property.key);
    let job: JobDefinition | undefined;
    try {
      job = jobOfProperty(property);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.broken.set(property.key, reason);
      this.options.logger.warn({ pipeline: property.key, reason }, 'job not registered');
      return;
    }
    if (!job || this.stopped) return;
    const entry: Entry = { job, next: job.schedule.nextAfter(this.clock()), runningHere: false };
    this.entries.set(job.pipelineKey, entry);
    this.arm(entry);
  }

  private remove(key: string): void {
    this.broken.delete(key);
    const entry = this.entries.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(key);
  }

  private arm(entry: Entry): void {
    if (!Number.isFinite(entry.next)) return;
    const wait = Math.min(Math.max(entry.next - this.clock(), 0), MAX_TIMER_MS);
    entry.timer = setTimeout(() => this.fire(entry), wait);
    entry.timer.unref();
  }

  private fire(entry: Entry): void {
    if (this.entries.get(entry.job.pipelineKey) !== entry) return; // replaced or removed meanwhile
    const due = entry.next;
    const now = this.clock();
    if (now < due) return this.arm(entry); // a long wait in parts, or a timer early by the clock
    entry.next = entry.job.schedule.nextAfter(Math.max(due, now));
    this.arm(entry);
    const tick = this.tick(entry, due).catch((error: unknown) => {
      this.options.logger.error({ err: error, pipeline: entry.job.pipelineKey }, 'job tick failed');
    });
    this.running.add(tick);
    void tick.finally(() => this.running.delete(tick));
  }

  private async tick(entry: Entry, scheduled: number): Promise<void> {
    const { store, logger, instance } = this.options;
    const { job } = entry;
    const where = { pipeline: job.pipelineKey, scheduled: new Date(scheduled).toISOString() };
    if (await store.isStopped(job)) return;
    if (entry.runningHere) {
      logger.warn(where, 'job tick skipped: its previous run is still going');
      return;
    }
    if (!(await store.claim(job.pipelineKey, scheduled, instance, this.clock()))) return;
    entry.runningHere = true;
    try {
      const author = await this.options.properties.store.authorOf(job.pipelineKey);
      const principal = author ? await this.options.principalOf(author) : null;
      if (!principal) {
        logger.warn(where, 'job not run: the user who stored it no longer exists');
        await store.finish(job.pipelineKey, scheduled, this.clock(), 'skipped', 'no such author');
        return;
      }
      const outcome = await this.options.run(job, principal, scheduled);
      await store.finish(
        job.pipelineKey,
        scheduled,
        this.clock(),
        outcome.ok ? 'succeeded' : 'failed',
        outcome.error ?? null,
      );
      logger.debug(where, outcome.ok ? 'job ran' : 'job failed');
    } finally {
      entry.runningHere = false;
    }
  }
}
