/**
 * `event.listen` once per installation on PostgreSQL. Every instance's relay delivers every event to its
 * dispatcher, so the dispatchers claim each (event, listener) pair: `INSERT ... ON CONFLICT DO NOTHING` into
 * `event_listener_claim`, and only the instance whose row went in runs that listener.
 *
 * The dispatch mark (`event_dispatch_mark`) is the installation's high-water mark: each dispatcher raises it
 * to the last event whose listeners it has claimed (or had none to run), every `flushMs`. A dispatcher that
 * starts first dispatches the events after the mark, so events committed while no instance was dispatching
 * (all down, or the only one restarting) still fire; their listeners that some instance claimed already are
 * not claimed again.
 *
 * The exact guarantee, per (event, listener) pair whose event is still in the outbox (see the retention):
 * - at most once: the claim is taken before the run, so a claimer that crashes or stops mid-run (or drops the
 *   run because too many wait) means it does not run, and no other instance takes it over;
 * - at least one claim attempt, when some dispatcher saw the event: live, or at its next start while the mark
 *   is below the event. A claim lost to a database error is logged and the run skipped.
 * - Events that some instance's dispatcher handled before it died, while its mark update had not been
 *   flushed yet (up to `flushMs`), are dispatched again by the next start: their claims keep them at most once.
 * - Catch-up runs the listeners as they stand (re-indexed from the events as they are replayed), not as
 *   they were when the event committed.
 */
import type { Pool } from 'pg';
import type { Logger } from '../logging/logger';
import type { PipeworkEvent } from './event-bus';
import type { DispatchCoordination } from './dispatch-coordination';
import { outboxEventsAfter } from './postgres-event-outbox';

export interface PostgresListenerClaimsOptions {
  logger: Pick<Logger, 'warn'>;
  /** How often the dispatch mark is written. Default 1 s. */
  flushMs?: number;
  /** Missed events read per query at start. Default 500. */
  pageSize?: number;
}

export class PostgresListenerClaims implements DispatchCoordination {
  private pendingMark = 0;
  private writtenMark = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private flushing: Promise<void> = Promise.resolve();
  private readonly flushMs: number;
  private readonly pageSize: number;

  /** `pool`: the installation's; the events tables exist (the relay's start migrates them). */
  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresListenerClaimsOptions,
  ) {
    this.flushMs = options.flushMs ?? 1_000;
    this.pageSize = options.pageSize ?? 500;
  }

  async claim(eventId: number, listenerKey: string): Promise<boolean> {
    const result = await this.pool.query(
      `INSERT INTO event_listener_claim (event_id, listener_key) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [eventId, listenerKey],
    );
    return result.rowCount === 1;
  }

  async *missed(): AsyncIterable<PipeworkEvent> {
    let after = await this.mark();
    for (;;) {
      const page = await outboxEventsAfter(this.pool, after, this.pageSize);
      yield* page;
      if (page.length < this.pageSize) return;
      after = page.at(-1)!.id;
    }
  }

  handled(eventId: number): void {
    if (eventId <= this.pendingMark) return;
    this.pendingMark = eventId;
    if (!this.timer && !this.closed) this.flushLater();
  }

  /** The installation's dispatch mark: every event up to it was dispatched by some instance. */
  async mark(): Promise<number> {
    const result = await this.pool.query<{ event_id: string }>('SELECT event_id FROM event_dispatch_mark');
    return Number(result.rows[0]?.event_id ?? 0);
  }

  /** Writes the mark now (it only ever rises); `close` does it too. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const mark = this.pendingMark;
      if (mark <= this.writtenMark) return;
      try {
        await this.pool.query('UPDATE event_dispatch_mark SET event_id = greatest(event_id, $1)', [mark]);
        this.writtenMark = mark;
      } catch (error) {
        this.options.logger.warn({ err: error, mark }, 'event dispatch mark not written; retrying');
        if (!this.timer && !this.closed) this.flushLater();
      }
    });
    return this.flushing;
  }

  /** Writes the mark a last time; stop the dispatcher first. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Writes the mark in `flushMs` (after a new event was handled, or to retry a failed write). */
  private flushLater(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs);
    this.timer.unref();
  }
}
