/**
 * Async runs: the run is recorded as queued (readable on every instance at once), its id handed back, and it
 * runs in the background when the async limits allow (`async-queue.ts`).
 */
import { PipeworkError } from '../../shared/errors';
import type { PipelineScript } from '../../shared/pipeline';
import { slotKeyOf } from '../fairness/run-slots';
import { executePipeline, type ExecuteOptions } from '../pipeline/execute-pipeline';
import type { ServerServices } from '../services';
import { pipelineRefOf } from './run-store';

/** Starts `script` in the background as a recorded run and returns its id at once. */
export async function startAsyncRun(
  services: ServerServices,
  script: PipelineScript,
  options: ExecuteOptions,
): Promise<{ runId: string }> {
  const runs = services.runs;
  const trigger = options.trigger ?? { kind: 'async' as const };
  const record = runs.recorder.newRun(
    script,
    // Its parent is the run that started it, when a pipeline did.
    {
      ...options,
      trigger,
      keepOutput: true,
      async: true,
      parentRunId: options.parentRunId ?? services.run?.runId,
    },
    'queued',
  );
  const user = slotKeyOf(options.principal);
  const release = runs.queue.reserve(pipelineRefOf(record), user);
  try {
    await runs.recorder.prepare(record);
  } catch (error) {
    release();
    throw new PipeworkError(
      'UNAVAILABLE',
      'The run could not be recorded; try again later.',
      {},
      { cause: error },
    );
  }
  release();
  runs.queue.add({
    id: record.id,
    pipeline: pipelineRefOf(record),
    user,
    start: () =>
      executePipeline(services, script, {
        ...options,
        trigger,
        runId: record.id,
        keepOutput: true,
        topLevel: true,
        // The request that started it is over: only a cancel through the run history stops it.
        cancellation: undefined,
      }).catch(() => undefined),
  });
  return { runId: record.id };
}
