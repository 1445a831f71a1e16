/** `job.list`: the registered pipeline jobs the caller may read, in the real product's shape. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';

export const jobList = defineCommand<ServerServices>(
  {
    name: 'job.list',
    summary: 'Lists the scheduled pipeline jobs whose pipelines the caller may read.',
    description:
      'Each: pipelineKey, cron, schedule, timeZone, lastRun, lastDuration (HH:mm:ss.SSS), lastStatus, lastError, ' +
      'created, running (false once job.stop paused it) and nextRun.',
    parameters: {},
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [{ title: 'List the jobs', pipeline: 'pipeline:\n  - job.list\n' }],
  },
  async (ctx) => {
    const { jobs, properties } = ctx.services;
    const keys = jobs
      .jobs()
      .map((j) => j.pipelineKey)
      .filter((key) => properties.access.canRead(ctx.principal, key))
      .sort();
    const all = await Promise.all(keys.map((key) => jobs.status(key)));
    return all.filter((s) => s !== null);
  },
);
