/**
 * Per-user limits on pipeline runs: every top-level run (an HTTP request's pipeline or command, a debug run,
 * an `event.listen` run) holds one slot of its user while it runs; runs it starts itself (`pipeline.start`,
 * `call`) run inside that slot, so nesting never waits for a slot it could only get from itself. Waiting runs
 * are served fairly across users (`fair-slots.ts`); the time waited counts against the run's time limit.
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { Cancellation } from '../../shared/runner';
import { FairSlots, SlotRefused } from './fair-slots';
import type { RunLimitsConfig } from './run-limits-config';

/** Seconds a refused client is told to wait before it tries again. */
const RETRY_AFTER_SECONDS = 2;

/** Whose slots a run takes: the user who signed in (not the one a RunAs switched to), or everyone unsigned. */
export function slotKeyOf(principal: Principal | null): string {
  if (!principal) return '(anonymous)';
  return principal.actingUsername ?? principal.username;
}

export class RunSlots {
  private readonly slots: FairSlots;

  /** `pipelineMillis`: the time limit of one run, which also bounds the wait. */
  constructor(
    readonly config: RunLimitsConfig,
    private readonly pipelineMillis: number,
  ) {
    this.slots = new FairSlots({
      total: config.total,
      perKey: config.perUser,
      queuePerKey: config.queuePerUser,
    });
  }

  /** Runs `run` once the principal's user holds a slot; `run` gets the time limit left after the wait. */
  async run<T>(
    principal: Principal | null,
    cancellation: Cancellation | undefined,
    run: (maxMillis: number) => Promise<T>,
  ): Promise<T> {
    const key = slotKeyOf(principal);
    const started = Date.now();
    const maxWait = Math.min(this.config.queueMillis, this.pipelineMillis);
    // A free slot is taken at once; only a run that must wait needs a signal to leave the queue by.
    let release = cancellation?.cancelled ? null : this.slots.tryAcquire(key);
    if (release === null) {
      try {
        release = await this.slots.acquire(key, { cancellation, timeoutMillis: maxWait });
      } catch (error) {
        throw this.refusal(error, key);
      }
    }
    try {
      return await run(Math.max(1, this.pipelineMillis - (Date.now() - started)));
    } finally {
      release();
    }
  }

  /** Slots held and runs waiting (in all, or of one user). */
  usage(principal?: Principal | null): { held: number; waiting: number } {
    return this.slots.usage(principal === undefined ? undefined : slotKeyOf(principal));
  }

  /** Refuses the waiting runs and every later one (the server stops). */
  close(): void {
    this.slots.close();
  }

  private refusal(error: unknown, key: string): unknown {
    if (!(error instanceof SlotRefused)) return error;
    const { perUser, queuePerUser } = this.config;
    switch (error.reason) {
      case 'queue-full':
        return new PipeworkError(
          'TOO_MANY_REQUESTS',
          `Too many pipeline runs of '${key}' at once: ${perUser} may run and ${queuePerUser} wait; try again later.`,
          { limit: 'runs', perUser, queuePerUser, retryAfterSeconds: RETRY_AFTER_SECONDS },
        );
      case 'timeout':
        return new PipeworkError(
          'TOO_MANY_REQUESTS',
          `The pipeline run of '${key}' waited ${error.waitedMillis} ms for one of its ${perUser} run slots; try again later.`,
          {
            limit: 'runs',
            perUser,
            waitedMillis: error.waitedMillis,
            retryAfterSeconds: RETRY_AFTER_SECONDS,
          },
        );
      case 'cancelled':
        return new PipeworkError('LIMIT_EXCEEDED', 'The pipeline was cancelled before it started.', {
          limit: 'time',
        });
      case 'closed':
        return new PipeworkError('UNAVAILABLE', 'The server is stopping.', { retryAfterSeconds: 5 });
    }
  }
}
