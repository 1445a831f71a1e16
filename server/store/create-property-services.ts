/**
 * Builds the property store and its event bus for the server, and the holder of its background jobs, which the
 * composition root starts once every service exists (`server/start-property-jobs.ts`).
 */
import type { SqliteDatabase } from '../db';
import { EventBus } from '../events/event-bus';
import type { EventListenDispatcher } from '../events/event-listen-dispatcher';
import { iamAppAccessRules } from '../iam/app-access-rules';
import type { IamService } from '../iam';
import type { Logger } from '../logging/logger';
import { PropertyAccess } from './property-access';
import { PropertyService } from './property-service';
import { SqlitePropertyStore } from './sqlite-property-store';
import type { TtlCleanup } from './ttl-cleanup';

/** Background work of the property module; `stop` before the database closes. */
export interface PropertyJobs {
  ttlCleanup?: TtlCleanup;
  dispatcher?: EventListenDispatcher;
  /** Resolves once the stored event.listen pipelines are indexed. */
  ready: Promise<void>;
  stop(): void;
}

export interface PropertyServices {
  properties: PropertyService;
  events: EventBus;
  propertyJobs: PropertyJobs;
}

/** The store on the server's database, with the IAM's app access rules. Jobs start with `startPropertyJobs`. */
export function createPropertyServices(
  db: SqliteDatabase,
  iam: IamService,
  logger: Logger,
): PropertyServices {
  const events = new EventBus({ logger });
  const properties = new PropertyService({
    store: new SqlitePropertyStore(db),
    events,
    access: new PropertyAccess({ appRules: iamAppAccessRules(iam) }),
  });
  const propertyJobs: PropertyJobs = {
    ready: Promise.resolve(),
    stop() {
      this.ttlCleanup?.stop();
      this.dispatcher?.stop();
    },
  };
  return { properties, events, propertyJobs };
}
