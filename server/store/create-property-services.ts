/** Builds the property store, its event bus and background jobs (TTL cleanup, event.listen dispatch) for the server. */
import type { SqliteDatabase } from '../db';
import { EventBus } from '../events/event-bus';
import { EventListenDispatcher } from '../events/event-listen-dispatcher';
import { iamAppAccessRules } from '../iam/app-access-rules';
import type { IamService } from '../iam';
import type { Logger } from '../logging/logger';
import { executePipeline } from '../pipeline/execute-pipeline';
import { utilitiesFor } from '../pipeline/pel-utilities';
import type { ServerServices } from '../services';
import { PropertyAccess } from './property-access';
import { PropertyService } from './property-service';
import { SqlitePropertyStore } from './sqlite-property-store';
import { startTtlCleanup, type TtlCleanup } from './ttl-cleanup';

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

/** Starts TTL cleanup and event.listen dispatch once every service exists (pipelines need them all). */
export function startPropertyJobs(services: ServerServices, options: { ttlIntervalMs?: number } = {}): void {
  const { properties, logger, iam, propertyJobs } = services;
  const utilities = utilitiesFor(services);
  propertyJobs.ttlCleanup = startTtlCleanup(properties, { intervalMs: options.ttlIntervalMs, logger });
  const dispatcher = new EventListenDispatcher({
    properties,
    principalOf: (uuid) => iam.principalByUuid(uuid),
    run: (script, principal) => executePipeline(services, script, { principal }),
    utilities,
    logger,
  });
  propertyJobs.dispatcher = dispatcher;
  propertyJobs.ready = dispatcher.start().catch((error: unknown) => {
    logger.error({ err: error }, 'event listeners could not be indexed');
  });
}
