/** The job that deletes expired properties now and then (they are already invisible), emitting property.deleted. */
import type { JobLock } from '../db';
import type { Logger } from '../logging/logger';
import type { PropertyService } from './property-service';

export interface TtlCleanupOptions {
  /** How often it runs; default once a minute (the time to live is counted in minutes). */
  intervalMs?: number;
  logger?: Pick<Logger, 'info' | 'error'>;
  /** Several instances on one database: each pass runs on one of them only (`PostgresJobLock`). */
  lock?: JobLock;
}

/** The job's name for a `JobLock`. */
export const TTL_CLEANUP_JOB = 'ttl-cleanup';

export interface TtlCleanup {
  /** Runs one pass now (skipped while another pass runs, here or elsewhere); resolves to how many were deleted. */
  runOnce(): Promise<number>;
  stop(): void;
}

export function startTtlCleanup(
  service: Pick<PropertyService, 'deleteExpired'>,
  options: TtlCleanupOptions = {},
): TtlCleanup {
  let running: Promise<number> | undefined;
  const pass = async (): Promise<number> => {
    if (!options.lock) return service.deleteExpired();
    const run = await options.lock.runExclusive(TTL_CLEANUP_JOB, () => service.deleteExpired());
    return run.ran ? run.value : 0;
  };
  const runOnce = (): Promise<number> => {
    running ??= pass()
      .then((count) => {
        if (count > 0) options.logger?.info({ count }, 'expired properties deleted');
        return count;
      })
      .catch((error: unknown) => {
        options.logger?.error({ err: error }, 'expired property cleanup failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs ?? 60_000);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
