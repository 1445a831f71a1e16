/**
 * Builds the property store and its event bus for the server, and the holder of its background jobs, which the
 * composition root starts once every service exists (`server/start-property-jobs.ts`).
 */
import type { PropertyStore } from '../../shared/property';
import { EventBus } from '../events/event-bus';
import type { EventListenDispatcher } from '../events/event-listen-dispatcher';
import { iamAppAccessRules } from '../iam/app-access-rules';
import { AppShowIndex } from '../iam/app-show-index';
import type { IamService } from '../iam';
import type { Logger } from '../logging/logger';
import { PropertyAccess } from './property-access';
import { PropertyService } from './property-service';
import type { PropertyValueCipher } from './property-value-cipher';
import type { TtlCleanup } from './ttl-cleanup';

/** Background work of the property module; `stop` before the database closes. */
export interface PropertyJobs {
  ttlCleanup?: TtlCleanup;
  /** Who sees which app (`config/app`'s `show`), followed from the events; started first. */
  appShow: AppShowIndex;
  dispatcher?: EventListenDispatcher;
  /** Resolves once the stored event.listen pipelines are indexed. */
  ready: Promise<void>;
  /** Delivers the store's events to the bus (PostgreSQL's relay); absent when the service publishes them. */
  delivery?: { stop(): Promise<void> };
  stop(): Promise<void>;
}

export interface PropertyServices {
  properties: PropertyService;
  events: EventBus;
  propertyJobs: PropertyJobs;
}

/**
 * The service over the server's store, with the IAM's app access rules and the apps' `show` roles. `eventsFromStore`: the store records
 * the events (the PostgreSQL outbox) and a relay delivers them. Jobs start with `startPropertyJobs`.
 */
export function createPropertyServices(
  store: { store: PropertyStore; eventsFromStore: boolean },
  iam: IamService,
  logger: Logger,
  options: { trashBinDays?: number; cipher?: PropertyValueCipher } = {},
): PropertyServices {
  const events = new EventBus({ logger });
  const appShow = new AppShowIndex(store.store);
  const properties = new PropertyService({
    store: store.store,
    eventsFromStore: store.eventsFromStore,
    events,
    access: new PropertyAccess({ appRules: iamAppAccessRules(iam, appShow) }),
    realm: iam.realm,
    trashBinDays: options.trashBinDays,
    ...(options.cipher && { cipher: options.cipher }),
  });
  const propertyJobs: PropertyJobs = {
    appShow,
    ready: Promise.resolve(),
    async stop() {
      this.appShow.stop();
      this.ttlCleanup?.stop();
      this.dispatcher?.stop();
      await this.delivery?.stop();
    },
  };
  return { properties, events, propertyJobs };
}
