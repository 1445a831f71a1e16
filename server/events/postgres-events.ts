/**
 * The event delivery of one instance on PostgreSQL, assembled for the composition root: the relay that fills
 * the instance's bus from the outbox, the listener claims for the event.listen dispatcher, and the outbox
 * prune job. The store writes the outbox itself (`outboxWriter()` as its `beforeCommit`, opened after
 * `migrateEventOutbox`). What each part guarantees is in its own file.
 */
import type { Pool } from 'pg';
import type { JobLock } from '../db';
import type { PostgresNotifications } from '../db/postgres-notifications';
import type { Logger } from '../logging/logger';
import type { EventBus } from './event-bus';
import { PostgresEventRelay } from './postgres-event-relay';
import { PostgresListenerClaims } from './postgres-listener-claims';
import { startOutboxPrune, type OutboxPrune } from './outbox-prune-job';

export interface PostgresEventsOptions {
  pool: Pool;
  /** The instance's listening connection (shared with other modules). */
  notifications: PostgresNotifications;
  /** `ServerServices.events`: the relay is its only source (`PropertyService` with `eventsFromStore: true`). */
  bus: EventBus;
  /** The installation-wide job lock, for the outbox prune. */
  lock: JobLock;
  logger: Logger;
  /** How long the outbox keeps events. Default 24 h. */
  retentionMs?: number;
  /** The NOTIFY channel; default `EVENTS_CHANNEL` (tests sharing a database use one each). */
  channel?: string;
}

export interface PostgresEvents {
  relay: PostgresEventRelay;
  /** The `coordination` of the `EventListenDispatcher`. */
  claims: PostgresListenerClaims;
  prune: OutboxPrune;
  /** Stops the prune, the relay and the claims (stop the dispatcher first). */
  close(): Promise<void>;
}

export async function startPostgresEvents(options: PostgresEventsOptions): Promise<PostgresEvents> {
  const { pool, notifications, bus, logger, channel } = options;
  // The relay's start creates the events tables when they are missing.
  const relay = await PostgresEventRelay.start({ pool, notifications, bus, logger, channel });
  const claims = new PostgresListenerClaims(pool, { logger });
  const prune = startOutboxPrune(relay, { lock: options.lock, retentionMs: options.retentionMs, logger });
  return {
    relay,
    claims,
    prune,
    async close() {
      prune.stop();
      await relay.close();
      await claims.close();
    },
  };
}
