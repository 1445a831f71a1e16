/**
 * How deep a run is in pipelines started by other pipelines in place (`pipeline.start`, `call`), carried on
 * the run's services (`run-scope.ts`): a pipeline that starts itself ends with a clear error.
 */
import { PipeworkError } from '../../../shared/errors';
import { servicesInRun } from '../../runs/run-services';
import { SecretMask } from '../../runs/secret-mask';
import type { ServerServices } from '../../services';

/** Pipelines one run may start inside one another. */
export const MAX_PIPELINE_NESTING = 10;

/**
 * The services for a pipeline the calling run starts in place: one level deeper. Past the limit,
 * LIMIT_EXCEEDED naming the pipeline that was to start.
 */
export function nestedServices(services: ServerServices, key: string): ServerServices {
  const nesting = (services.run?.nesting ?? 0) + 1;
  if (nesting > MAX_PIPELINE_NESTING) {
    throw new PipeworkError(
      'LIMIT_EXCEEDED',
      `Pipelines started one another more than ${MAX_PIPELINE_NESTING} deep (starting '${key}'): does a pipeline call itself?`,
      { limit: 'nesting', maxNesting: MAX_PIPELINE_NESTING, pipeline: key },
    );
  }
  const run = services.run ?? { mask: new SecretMask(), runId: undefined, nesting: 0 };
  return servicesInRun(services, { ...run, nesting });
}
