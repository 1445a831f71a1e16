/**
 * The in-process event bus: writers publish after their transaction committed; listeners (event.listen
 * dispatch, SSE clients, tests) run later, in publish order, so a slow or failing listener never delays or
 * breaks the write that caused the event.
 */
import type { Logger } from '../logging/logger';
import { currentEventOrigin } from './event-context';
import { payloadWithPaths } from './property-event-shape';

/** An event as listeners see it; `{eventKey, payload}` is its public JSON form. */
export interface PipeworkEvent {
  /** The SSE `id`: one more per event in this process, or on PostgreSQL the outbox id (installation-wide, increasing). */
  id: number;
  eventKey: string;
  /** For property events `{origin, target}`: the property before and after the change. */
  payload: unknown;
  timestamp: number;
  /** 0 for events caused directly by a request; n+1 for events caused by a pipeline an event of depth n started. */
  depth: number;
  /** Uuid of the user whose action caused the event, when known. */
  actor?: string | null;
  /**
   * The listener cascade the event was written in (`cascade-budget.ts`); null or absent for an event a request
   * (or anything but a listener run) caused, which starts a cascade of its own.
   */
  cascade?: string | null;
}

export type EventListener = (event: PipeworkEvent) => void | Promise<unknown>;

/** Past events that can be read again (the PostgreSQL outbox): SSE clients resume from `Last-Event-ID`. */
export interface EventHistory {
  /** Up to `limit` events with an id above `afterId`, in id order. */
  eventsAfter(afterId: number, limit: number): Promise<PipeworkEvent[]>;
  /** The newest event's id (0 when there is none). */
  latestId(): Promise<number>;
}

export interface EventBusOptions {
  logger?: Pick<Logger, 'error'>;
  clock?: () => number;
}

export class EventBus {
  private readonly listeners = new Set<EventListener>();
  private readonly queue: PipeworkEvent[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private nextId = 1;
  private scheduled = false;
  private readonly logger?: Pick<Logger, 'error'>;
  private readonly clock: () => number;
  private pastEvents?: EventHistory;

  constructor(options: EventBusOptions = {}) {
    this.logger = options.logger;
    this.clock = options.clock ?? Date.now;
  }

  /** Queues an event for every listener; call it only after the change it reports has committed. */
  publish(eventKey: string, payload: unknown, meta: { actor?: string | null } = {}): PipeworkEvent {
    const origin = currentEventOrigin();
    const event: PipeworkEvent = {
      id: this.nextId++,
      eventKey,
      payload,
      timestamp: this.clock(),
      depth: origin.depth,
      actor: meta.actor ?? null,
      cascade: origin.cascade,
    };
    this.deliver(event);
    return event;
  }

  /**
   * Queues an event that already has its id and timestamp: one the PostgreSQL relay read from the outbox,
   * where ids are installation-wide. Use either this or `publish` on one bus, not both.
   */
  deliver(event: PipeworkEvent): void {
    this.queue.push(event);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Where past events can be read again, when they can (PostgreSQL); undefined in one process (SQLite). */
  get history(): EventHistory | undefined {
    return this.pastEvents;
  }

  /** Makes past events readable again through `history` (the relay that delivers events to this bus). */
  useHistory(history: EventHistory): void {
    this.pastEvents = history;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Resolves once every queued event was delivered and the listeners' promises settled (for tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.scheduled) await new Promise((resolve) => setImmediate(resolve));
      else if (this.running.size > 0) await Promise.allSettled([...this.running]);
      else return;
    }
  }

  private drain(): void {
    this.scheduled = false;
    const events = this.queue.splice(0);
    for (const event of events) {
      for (const listener of [...this.listeners]) {
        try {
          const result = listener(event);
          if (result && typeof (result as Promise<unknown>).then === 'function') {
            const tracked = (result as Promise<unknown>).then(
              () => undefined,
              (error: unknown) => this.report(event, error),
            );
            this.running.add(tracked);
            void tracked.finally(() => this.running.delete(tracked));
          }
        } catch (error) {
          this.report(event, error);
        }
      }
    }
  }

  private report(event: PipeworkEvent, error: unknown): void {
    this.logger?.error({ err: error, eventKey: event.eventKey, eventId: event.id }, 'event listener failed');
  }
}

/**
 * The public JSON form of an event, as SSE clients receive it (and event.listen pipelines as `payload`):
 * property sides also carry `path`, the real product's name for the key.
 */
export function eventJson(event: PipeworkEvent): { eventKey: string; payload: unknown; timestamp: number } {
  return { eventKey: event.eventKey, payload: payloadWithPaths(event.payload), timestamp: event.timestamp };
}
