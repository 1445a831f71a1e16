/**
 * Starts the property store's background jobs (TTL cleanup, event.listen dispatch) once every service exists:
 * they run pipelines, which need them all. Part of the composition root, beside `create-services.ts`.
 */
import { EventListenDispatcher } from './events/event-listen-dispatcher';
import { executePipeline } from './pipeline/execute-pipeline';
import { utilitiesFor } from './pipeline/pel-utilities';
import type { ServerServices } from './services';
import { startTtlCleanup } from './store/ttl-cleanup';

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
