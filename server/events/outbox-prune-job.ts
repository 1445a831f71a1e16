/**
 * The periodic job that keeps the PostgreSQL event outbox bounded: events (and their listener claims) older
 * than the retention are deleted, by one instance of the installation per pass (a `JobLock`). The retention
 * is how far back an SSE client can resume with `Last-Event-ID`, and how long an installation whose instances
 * were all down may stay down and still run its `event.listen` pipelines for what was committed meanwhile.
 */
import type { JobLock } from '../db';
import type { Logger } from '../logging/logger';

/** The job's name for a `JobLock`. */
export const OUTBOX_PRUNE_JOB = 'event-outbox-prune';
/** Default retention: 24 hours. */
export const DEFAULT_OUTBOX_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface OutboxPruneOptions {
  /** Several instances: one pass at a time in the whole installation (`PostgresJobLock`). */
  lock: JobLock;
  /** Default `DEFAULT_OUTBOX_RETENTION_MS`. */
  retentionMs?: number;
  /** Default 10 minutes. */
  intervalMs?: number;
  logger?: Pick<Logger, 'info' | 'error'>;
}

export interface OutboxPrune {
  /** One pass now (none when another instance's pass runs); resolves to how many events were deleted. */
  runOnce(): Promise<number>;
  stop(): void;
}

/** `outbox`: the relay (`PostgresEventRelay.prune`). */
export function startOutboxPrune(
  outbox: { prune(retentionMs: number): Promise<number> },
  options: OutboxPruneOptions,
): OutboxPrune {
  const retentionMs = options.retentionMs ?? DEFAULT_OUTBOX_RETENTION_MS;
  const runOnce = async (): Promise<number> => {
    try {
      const run = await options.lock.runExclusive(OUTBOX_PRUNE_JOB, () => outbox.prune(retentionMs));
      const count = run.ran ? run.value : 0;
      if (count > 0) options.logger?.info({ count }, 'old events deleted from the outbox');
      return count;
    } catch (error) {
      options.logger?.error({ err: error }, 'event outbox prune failed');
      return 0;
    }
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs ?? 10 * 60 * 1000);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
