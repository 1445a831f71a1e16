/**
 * What differs between an installation on SQLite (one instance) and one on PostgreSQL (several instances
 * sharing the database): the property store and how its events travel, the cache, the lock that makes
 * periodic jobs run once per installation, and how the IAM hears of other instances' changes. The
 * composition root (`create-services.ts`) takes one of these (`open-database-parts.ts`) and is otherwise the
 * same for both.
 */
import type { PropertyStore } from '../../shared/property';
import type { CacheStore } from '../cache';
import type { JobLock } from '../db/installation-lock';
import type { EventBus } from '../events/event-bus';
import type { DispatchCoordination } from '../events/dispatch-coordination';
import type { IamOptions } from '../iam';

export interface DatabaseParts {
  store: PropertyStore;
  /** True when the store records events itself and `startEvents` relays them (PostgreSQL). */
  eventsFromStore: boolean;
  cache: CacheStore;
  jobLock: JobLock;
  /** The IAM's change feed and synchronous reader on this database. */
  iam: Pick<IamOptions, 'changeFeed' | 'syncReader'>;
  /**
   * Starts delivering the store's events to the bus (a no-op when the service publishes them itself), with
   * the coordination that makes each `event.listen` pipeline run once per event in the installation.
   */
  startEvents(bus: EventBus): Promise<EventDelivery>;
  close(): Promise<void>;
}

export interface EventDelivery {
  /** How the `event.listen` dispatchers of several instances share the events (absent: one instance). */
  coordination?: DispatchCoordination;
  stop(): Promise<void>;
}
