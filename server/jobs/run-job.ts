/** Starts one run of a job's pipeline through `executePipeline`, as a top-level run counted as a job's. */
import type { Principal } from '../../shared/auth';
import { executePipeline } from '../pipeline/execute-pipeline';
import type { ServerServices } from '../services';
import type { JobDefinition } from './job-definition';
import type { JobRunOutcome } from './job-scheduler';

export async function runJob(
  services: ServerServices,
  job: JobDefinition,
  principal: Principal,
): Promise<JobRunOutcome> {
  try {
    await executePipeline(services, job.script, {
      principal,
      topLevel: true,
      trigger: { kind: 'job', source: job.pipelineKey },
      pipelineKey: job.pipelineKey,
    });
    return { ok: true };
  } catch (error) {
    services.logger.warn({ err: error, pipeline: job.pipelineKey }, 'job run failed');
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
