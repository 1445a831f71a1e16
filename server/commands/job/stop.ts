/** `job.stop`: pauses a job in the whole installation until its pipeline is stored again. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { normalizePropertyKey } from '../../../shared/property';
import type { ServerServices } from '../../services';

export const jobStop = defineCommand<ServerServices>(
  {
    name: 'job.stop',
    summary: 'Stops the job of a pipeline until the pipeline is stored again.',
    description:
      'On every instance: the next due times are skipped. A run going on is not interrupted. Storing the pipeline ' +
      'again (or a new version of it) registers the job afresh, running. Needs write access to the pipeline.',
    parameters: {
      pipelineKey: { type: 'string', description: 'The key of the job’s pipeline.' },
    },
    required: ['pipelineKey'],
    defaultParameter: 'pipelineKey',
    input: 'none',
    output: 'json',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Pause the nightly job',
        pipeline: 'pipeline:\n  - job.stop:\n      pipelineKey: global/app/myapp/pipeline/nightly\n',
      },
    ],
  },
  async (ctx) => {
    const key = normalizePropertyKey(ctx.params.pipelineKey);
    ctx.services.properties.access.assertWrite(ctx.principal, key);
    if (!(await ctx.services.jobs.stopJob(key, ctx.principal?.username ?? null))) {
      throw new PipeworkError('NOT_FOUND', `'${key}' has no job.`, { key });
    }
    return ctx.services.jobs.status(key);
  },
);
