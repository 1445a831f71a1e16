/**
 * The events module's public face: the bus, the event.listen dispatcher, the event-chain depth, and for
 * PostgreSQL the outbox, the relay, the listener claims and the outbox prune job.
 */
export {
  EventBus,
  eventJson,
  type EventBusOptions,
  type EventHistory,
  type EventListener,
  type PipeworkEvent,
} from './event-bus';
export {
  EventListenDispatcher,
  eventBody,
  keysOfEvent,
  type EventListenDispatcherOptions,
  type EventListenerRegistration,
} from './event-listen-dispatcher';
export { currentEventDepth, runAtEventDepth } from './event-context';
export { followEvents, parseLastEventId, type FollowOptions } from './follow-events';
export type { DispatchCoordination } from './dispatch-coordination';
export {
  EVENTS_CHANNEL,
  POSTGRES_EVENT_MIGRATIONS,
  migrateEventOutbox,
  outboxWriter,
  type OutboxWriterOptions,
} from './postgres-event-outbox';
export { PostgresEventRelay, type PostgresEventRelayOptions } from './postgres-event-relay';
export { PostgresListenerClaims, type PostgresListenerClaimsOptions } from './postgres-listener-claims';
export {
  DEFAULT_OUTBOX_RETENTION_MS,
  OUTBOX_PRUNE_JOB,
  startOutboxPrune,
  type OutboxPrune,
  type OutboxPruneOptions,
} from './outbox-prune-job';
