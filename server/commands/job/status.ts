/** `job.status`: one job's status, or null when the pipeline is no job. */
import { defineCommand } from '../../../shared/commands';
import { normalizePropertyKey } from '../../../shared/property';
import type { ServerServices } from '../../services';

export const jobStatus = defineCommand<ServerServices>(
  {
    name: 'job.status',
    summary: 'Returns the status of the job of a pipeline, or null when it has none.',
    description: 'The same fields as job.list. A pipeline whose job command is wrong is an error naming why.',
    parameters: {
      pipelineKey: { type: 'string', description: 'The key of the job’s pipeline.' },
    },
    required: ['pipelineKey'],
    defaultParameter: 'pipelineKey',
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'When did the nightly job last run?',
        pipeline: 'pipeline:\n  - job.status:\n      pipelineKey: global/app/myapp/pipeline/nightly\n',
      },
    ],
  },
  async (ctx) => {
    const key = normalizePropertyKey(ctx.params.pipelineKey);
    ctx.services.properties.access.assertRead(ctx.principal, key);
    return ctx.services.jobs.status(key);
  },
);
