/**
 * Brings the installation's events to this instance: on PostgreSQL, writes put their events in the outbox
 * (`postgres-event-outbox.ts`) and the relay of every instance reads them from there, in id order, and
 * delivers them to its local `EventBus` with the outbox id as the event id, so SSE ids mean the same event on
 * every instance. It reads after each NOTIFY, after the listening connection came back (the notifications
 * sent meanwhile are lost, the rows are not), and every `pollMs` as a safety net. A cursor (the last id
 * delivered) makes every event arrive once, in id order. Writers take no common lock, so a smaller id may
 * commit after a larger one: the relay delivers only up to the first missing id, notes the snapshot bound
 * (`xmax`) of that read, and passes the gap only once every transaction in flight then has ended (a later
 * `xmin` at or past it) and a read after that still lacks the id (a rollback, or ids lost in a crash).
 * It is also the bus's history: SSE clients resume from `Last-Event-ID` on any instance, as far back as the
 * outbox keeps events.
 */
import type { Pool } from 'pg';
import type { PostgresNotifications } from '../db/postgres-notifications';
import type { Logger } from '../logging/logger';
import type { EventBus, EventHistory, PipeworkEvent } from './event-bus';
import {
  EVENTS_CHANNEL,
  migrateEventOutbox,
  outboxEventsAfter,
  outboxHead,
  outboxSnapshot,
  pruneOutbox,
} from './postgres-event-outbox';

export interface PostgresEventRelayOptions {
  pool: Pool;
  notifications: PostgresNotifications;
  /** The instance's bus; the relay is its only source (PropertyService runs with `eventsFromStore`). */
  bus: EventBus;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** Deliver events after this outbox id; default the newest at start (only what commits from now on). */
  after?: number;
  /** Default `EVENTS_CHANNEL`; the outbox writer must notify on the same. */
  channel?: string;
  /** Rows read per query. Default 500. */
  batchSize?: number;
  /** Reads even without a notification this often. Default 30 s. */
  pollMs?: number;
}

/** Wait before retrying after a failed read (the database may be restarting). */
const RETRY_MS = 1_000;

/** Waits before reading a gap again: short first (a commit is usually a moment away), then longer. */
const GAP_RECHECK_MS = [5, 20, 50, 100, 250];

/** A missing id the relay waits at: ids up to `upTo` may still come from transactions begun before `xmax`. */
interface GapWait {
  xmax: bigint;
  upTo: number;
  rechecks: number;
}

export class PostgresEventRelay implements EventHistory {
  private last: number;
  private reading: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private unlisten: () => void = () => undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly batchSize: number;
  private gap: GapWait | undefined;
  private gapTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly options: PostgresEventRelayOptions,
    after: number,
  ) {
    this.last = after;
    this.batchSize = options.batchSize ?? 500;
  }

  /** Creates the outbox tables if needed, starts following them and becomes the bus's history. */
  static async start(options: PostgresEventRelayOptions): Promise<PostgresEventRelay> {
    await migrateEventOutbox(options.pool);
    const relay = new PostgresEventRelay(options, options.after ?? (await outboxHead(options.pool)));
    relay.unlisten = options.notifications.listen(
      options.channel ?? EVENTS_CHANNEL,
      (payload) => relay.onNotify(payload),
      () => relay.catchUp(),
    );
    const poll = setInterval(() => relay.catchUp(), options.pollMs ?? 30_000);
    poll.unref();
    relay.timers.add(poll);
    options.bus.useHistory(relay);
    relay.catchUp();
    return relay;
  }

  /** The id of the last event delivered to the bus (where a restarted relay could go on from). */
  get cursor(): number {
    return this.last;
  }

  /** Events still in the outbox after `afterId`, for an SSE client resuming from `Last-Event-ID`. */
  eventsAfter(afterId: number, limit: number): Promise<PipeworkEvent[]> {
    return outboxEventsAfter(this.options.pool, afterId, limit);
  }

  latestId(): Promise<number> {
    return outboxHead(this.options.pool);
  }

  /** Deletes outbox rows (and their listener claims) older than `retentionMs`; run by one instance at a time. */
  prune(retentionMs: number): Promise<number> {
    return pruneOutbox(this.options.pool, retentionMs);
  }

  /** Reads and delivers everything committed after the cursor; a call while reading reads again after. */
  catchUp(): void {
    if (this.closed) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.again = false;
    this.reading = this.deliverNew()
      .catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'event outbox could not be read; retrying');
        this.later(() => this.catchUp(), RETRY_MS);
      })
      .finally(() => {
        this.reading = undefined;
        if (this.again) this.catchUp();
      });
  }

  /** Resolves once nothing is being read (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.reading) await this.reading;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unlisten();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    clearTimeout(this.gapTimer);
    await this.idle();
  }

  private onNotify(payload: string): void {
    // The payload is the newest id of the committing write: nothing to read when it was delivered already.
    const id = Number(payload);
    if (payload !== '' && Number.isSafeInteger(id) && id <= this.last) return;
    this.catchUp();
  }

  private async deliverNew(): Promise<void> {
    const { pool } = this.options;
    for (;;) {
      // Ids up to `passable` that are still missing will never come: every writer that could hold one has ended.
      const waiting = this.gap;
      const passable =
        waiting && (await outboxSnapshot(pool)).xmin >= waiting.xmax ? waiting.upTo : this.last;
      const events = await outboxEventsAfter(pool, this.last, this.batchSize);
      if (this.closed) return;
      let stopped: PipeworkEvent | undefined;
      for (const event of events) {
        if (event.id !== this.last + 1 && event.id - 1 > passable) {
          stopped = event;
          break;
        }
        this.options.bus.deliver(event);
        this.last = event.id;
      }
      if (stopped) {
        if (!waiting || passable >= waiting.upTo) {
          const { xmax } = await outboxSnapshot(pool);
          this.gap = { xmax, upTo: events.at(-1)!.id, rechecks: 0 };
        }
        this.recheckGap();
        return;
      }
      this.gap = undefined;
      if (events.length < this.batchSize) return;
    }
  }

  /** Reads again soon while waiting at a gap: a rollback fills it with no notification. */
  private recheckGap(): void {
    const gap = this.gap;
    if (!gap || this.gapTimer) return;
    const ms = GAP_RECHECK_MS[Math.min(gap.rechecks, GAP_RECHECK_MS.length - 1)]!;
    gap.rechecks += 1;
    this.gapTimer = setTimeout(() => {
      this.gapTimer = undefined;
      this.catchUp();
    }, ms);
    this.gapTimer.unref();
  }

  private later(run: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }
}
