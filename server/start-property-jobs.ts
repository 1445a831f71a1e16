/**
 * Starts the property store's background jobs (TTL cleanup, event.listen dispatch, pipeline jobs) once every service exists:
 * they run pipelines, which need them all. Part of the composition root, beside `create-services.ts`.
 */
import { CascadeBudget, DEFAULT_CASCADE_LIMITS } from './events/cascade-budget';
import { EventListenDispatcher } from './events/event-listen-dispatcher';
import { executePipeline } from './pipeline/execute-pipeline';
import { utilitiesFor } from './pipeline/pel-utilities';
import type { ServerServices } from './services';
import { startTtlCleanup } from './store/ttl-cleanup';

export async function startPropertyJobs(
  services: ServerServices,
  options: { ttlIntervalMs?: number } = {},
): Promise<void> {
  const { properties, logger, iam, propertyJobs, parts } = services;
  const utilities = utilitiesFor(services);
  // Before anything is served or dispatched: who sees which app.
  await propertyJobs.appShow.start(services.events);
  const delivery = await parts.startEvents(services.events);
  propertyJobs.delivery = delivery;
  // One cleanup job for everything with a time to live: expired properties, deliveries, secrets, old versions.
  const expiring = {
    deleteExpired: async () => {
      const count =
        (await properties.deleteExpired()) +
        (await services.deliveries.deleteExpired()) +
        (await services.secrets.deleteExpired());
      // Versions past the history's age bound, of keys no longer written (written keys prune themselves).
      await properties.store.history.prune();
      return count;
    },
  };
  propertyJobs.ttlCleanup = startTtlCleanup(expiring, {
    intervalMs: options.ttlIntervalMs,
    logger,
    lock: parts.jobLock,
  });
  const dispatcher = new EventListenDispatcher({
    properties,
    principalOf: (uuid) => iam.principalByUuid(uuid),
    run: (script, principal, pipelineKey) =>
      executePipeline(services, script, {
        principal,
        topLevel: true,
        trigger: { kind: 'event', source: pipelineKey },
        pipelineKey,
      }),
    utilities,
    logger,
    coordination: delivery.coordination,
    cascades: new CascadeBudget(services.config.eventCascade ?? DEFAULT_CASCADE_LIMITS),
  });
  propertyJobs.dispatcher = dispatcher;
  const jobsIndexed = services.jobs.start().catch((error: unknown) => {
    logger.error({ err: error }, 'pipeline jobs could not be indexed');
  });
  propertyJobs.ready = Promise.all([
    dispatcher.start().catch((error: unknown) => {
      logger.error({ err: error }, 'event listeners could not be indexed');
    }),
    jobsIndexed,
  ]).then(() => undefined);
}
