/**
 * How the `event.listen` dispatchers of several instances share the events (PostgreSQL: every instance sees
 * every event): who runs a listener, and what a dispatcher catches up on at start. The implementation is
 * `postgres-listener-claims.ts`; a dispatcher without one runs every listener itself (SQLite, one process).
 */
import type { PipeworkEvent } from './event-bus';

export interface DispatchCoordination {
  /** True for the one dispatcher of the installation that is to run `listenerKey` for the event. */
  claim(eventId: number, listenerKey: string): Promise<boolean>;
  /** At start, in id order: the events after the installation's dispatch mark, which no dispatcher handled. */
  missed(): AsyncIterable<PipeworkEvent>;
  /** Called in id order once every listener of the event was claimed (or is not to run) by this dispatcher. */
  handled(eventId: number): void;
}
