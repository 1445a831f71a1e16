/**
 * Following the bus for one SSE client, one event after the other (a client's checks may wait), and resuming
 * after `Last-Event-ID` where the bus has a history (PostgreSQL: the outbox, installation-wide ids): first the
 * events the client missed, then the live ones, each once and in id order. Without a history (SQLite, ids per
 * process) a `Last-Event-ID` is ignored and the client gets the events from now on, as before.
 */
import type { EventBus, PipeworkEvent } from './event-bus';

export interface FollowOptions {
  /** The id of the last event the client received (the `Last-Event-ID` header), if any. */
  lastEventId?: number;
  /** Past events read per query while resuming. Default 500. */
  pageSize?: number;
}

/** The `Last-Event-ID` header as an event id, or undefined when absent or not an id. */
export function parseLastEventId(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d{1,15}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/**
 * Calls `deliver` for each event, never two at once; `fail` when one throws (the follower should stop).
 * Returns the function that stops following.
 */
export function followEvents(
  bus: EventBus,
  deliver: (event: PipeworkEvent) => Promise<void> | void,
  fail: (error: unknown) => void,
  options: FollowOptions = {},
): () => void {
  const history = options.lastEventId === undefined ? undefined : bus.history;
  const pageSize = options.pageSize ?? 500;
  let last = options.lastEventId ?? 0;
  let stopped = false;
  const forward = async (event: PipeworkEvent) => {
    if (stopped) return;
    // While resuming, a live event may have come through the history already.
    if (history) {
      if (event.id <= last) return;
      last = event.id;
    }
    await deliver(event);
  };
  const replay = async () => {
    if (!history) return;
    // An id from the future (another installation, a restored database) would hide the live events.
    last = Math.min(last, await history.latestId());
    for (;;) {
      const page = await history.eventsAfter(last, pageSize);
      for (const event of page) await forward(event);
      if (page.length < pageSize || stopped) return;
    }
  };
  // Subscribed before the history is read, so nothing falls between the two.
  let chain = replay().catch(fail);
  const unsubscribe = bus.subscribe((event) => {
    chain = chain.then(() => forward(event)).catch(fail);
  });
  return () => {
    stopped = true;
    unsubscribe();
  };
}
