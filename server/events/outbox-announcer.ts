/**
 * Tells every instance that new events are in the outbox, at a fraction of a NOTIFY per write. A NOTIFY in
 * every write's transaction would serialize their commits (PostgreSQL holds one notification lock per
 * database through a notifying commit); a NOTIFY after every commit costs a transaction of its own. So one
 * write at a time carries the notification for the events committed before it (`pg_notify` in its own
 * outbox statement, sent when it commits), and when no write comes along within `fallbackMs`, a NOTIFY of
 * its own is sent. A lost notification only delays: the relays also poll.
 */
import type { Pool } from 'pg';
import { EVENTS_CHANNEL, type CarrierSettle, type NotificationCarrier } from './postgres-event-outbox';

/** Default wait for a write to carry the notification before one is sent on its own. */
export const DEFAULT_ANNOUNCE_FALLBACK_MS = 5;

export class OutboxAnnouncer implements NotificationCarrier {
  /** Writes with events committed so far, and how many of them a sent notification covers. */
  private committedCount = 0;
  private coveredCount = 0;
  /** The write carrying the notification now: the commits it covers when it commits. */
  private carrier: { covers: number } | undefined;
  private sending = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly onError: (error: unknown) => void,
    readonly channel = EVENTS_CHANNEL,
    private readonly fallbackMs = DEFAULT_ANNOUNCE_FALLBACK_MS,
  ) {}

  /**
   * Called in a write's transaction before its outbox statement: when events committed earlier wait for
   * their notification and no other write carries it, this write does (the caller adds `pg_notify` and calls
   * the answer once its transaction ended).
   */
  carry(): CarrierSettle | undefined {
    if (this.carrier || this.sending || this.committedCount === this.coveredCount) return undefined;
    const carrier = { covers: this.committedCount };
    this.carrier = carrier;
    let settled = false;
    return (committed) => {
      if (settled) return;
      settled = true;
      if (this.carrier === carrier) this.carrier = undefined;
      if (committed) this.coveredCount = Math.max(this.coveredCount, carrier.covers);
      this.scheduleFallback();
    };
  }

  /** After a write with events committed: its notification comes with a later write, or on its own. */
  committed(): void {
    this.committedCount++;
    this.scheduleFallback();
  }

  /** Stops the fallback timer (the pool may close after). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private scheduleFallback(): void {
    if (this.timer || this.committedCount === this.coveredCount) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.carrier || this.sending) return; // the carrier's or the sender's end schedules again
      this.sendAlone();
    }, this.fallbackMs);
    this.timer.unref();
  }

  private sendAlone(): void {
    if (this.committedCount === this.coveredCount) return;
    const covers = this.committedCount;
    this.sending = true;
    this.pool
      // Not waiting for its own commit to reach the disk: a lost notification only delays (the relays poll).
      .query("SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)", [this.channel, ''])
      // Covered even when it failed: the relays poll, and a database that is down is not asked every 5 ms.
      .catch(this.onError)
      .finally(() => {
        this.coveredCount = Math.max(this.coveredCount, covers);
        this.sending = false;
        this.scheduleFallback();
      });
  }
}
