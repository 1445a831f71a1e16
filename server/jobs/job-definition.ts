/**
 * Which stored pipelines are jobs: a pipeline under `global/app/<app>/pipeline/` whose first command is
 * `job`. Reading one gives its schedule, or the reason it cannot be a job (a second `job`, a `job` that is
 * not first, a bad schedule), which the scheduler logs and `job.status` shows.
 */
import { PipeworkError } from '../../shared/errors';
import { parsePipeline, type PipelineScript, type PipelineStep } from '../../shared/pipeline';
import { isAppPipelineKey, isJsonType, type Property } from '../../shared/property';
import { parseJobSchedule, type JobSchedule } from './job-schedule';
import type { JobVersion } from './job-store';

export interface JobDefinition extends JobVersion {
  schedule: JobSchedule;
  script: PipelineScript;
  /** When this version of the pipeline was stored (epoch ms). */
  created: number;
}

function countJobSteps(steps: readonly PipelineStep[]): number {
  return steps.filter((step) => step.command === 'job').length;
}

/**
 * The job a stored pipeline defines: undefined when it is none (not a pipeline, or no `job` in it); throws a
 * `PipeworkError` when it has `job` used wrongly or a bad schedule.
 */
export function jobOfProperty(property: Property): JobDefinition | undefined {
  if (!isAppPipelineKey(property.key) || !property.value?.includes('job')) return undefined;
  let script: PipelineScript;
  try {
    script = parsePipeline(property.value, isJsonType(property.type) ? 'json' : 'yaml');
  } catch {
    return undefined; // not a pipeline (or a broken one): no job
  }
  const job = jobOfScript(property.key, script);
  return (
    job && {
      ...job,
      uuid: property.uuid,
      version: property.version,
      created: property.updated ?? property.created,
    }
  );
}

/** The job of a parsed pipeline stored at `pipelineKey` (see `jobOfProperty`). */
export function jobOfScript(
  pipelineKey: string,
  script: PipelineScript,
): Pick<JobDefinition, 'pipelineKey' | 'schedule' | 'script'> | undefined {
  const count = countJobSteps(script.steps);
  if (count === 0) return undefined;
  const first = script.steps[0]!;
  const misplaced = script.steps.slice(1).find((s) => s.command === 'job');
  if (first.command !== 'job' || count > 1) {
    const message =
      first.command !== 'job'
        ? 'The job command must be the first command of the pipeline.'
        : 'A pipeline may have one job command only.';
    throw new PipeworkError('PARAM_INVALID', message, {
      commandName: 'job',
      commandIndex: misplaced?.index,
      ...misplaced?.position,
    });
  }
  const schedule = first.params.schedule ?? first.defaultValue;
  if (typeof schedule !== 'string' || schedule.trim() === '') {
    throw new PipeworkError('PARAM_INVALID', 'The job command needs a schedule.', {
      commandName: 'job',
      parameter: 'schedule',
    });
  }
  const timeZone = first.params.timeZone;
  if (timeZone !== undefined && typeof timeZone !== 'string') {
    throw new PipeworkError('PARAM_INVALID', 'timeZone must be text, e.g. Europe/Berlin.', {
      commandName: 'job',
      parameter: 'timeZone',
    });
  }
  return {
    pipelineKey,
    schedule: parseJobSchedule(schedule, pipelineKey, timeZone),
    script,
  };
}
