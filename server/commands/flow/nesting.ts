/**
 * How deep the current code runs in pipelines started by other pipelines (`pipeline.start`, `call`),
 * carried through awaits with AsyncLocalStorage: a pipeline that starts itself ends with a clear error.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { PipeworkError } from '../../../shared/errors';

/** Pipelines one run may start inside one another. */
export const MAX_PIPELINE_NESTING = 10;

const depth = new AsyncLocalStorage<number>();

export function currentNesting(): number {
  return depth.getStore() ?? 0;
}

/** Runs `fn` one level deeper; past the limit, LIMIT_EXCEEDED naming the pipeline that was to start. */
export function runNested<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const next = currentNesting() + 1;
  if (next > MAX_PIPELINE_NESTING) {
    return Promise.reject(
      new PipeworkError(
        'LIMIT_EXCEEDED',
        `Pipelines started one another more than ${MAX_PIPELINE_NESTING} deep (starting '${key}'): does a pipeline call itself?`,
        { limit: 'nesting', maxNesting: MAX_PIPELINE_NESTING, pipeline: key },
      ),
    );
  }
  return depth.run(next, fn);
}
