/**
 * `job`: as the first command of a stored pipeline it schedules that pipeline (`server/jobs/`); when the
 * pipeline runs, it checks it is first and the schedule reads, then passes the body on.
 */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { FIXED_SCHEDULES, parseJobSchedule } from '../../jobs';
import type { ServerServices } from '../../services';

export const job = defineCommand<ServerServices>(
  {
    name: 'job',
    summary:
      'Runs the stored pipeline it starts on a schedule: a fixed one (HOURLY, ...) or a cron expression.',
    description:
      'Put it first in a pipeline stored under <app>/pipeline/<name>; one per pipeline. Storing the pipeline ' +
      'registers the job, changing it replaces the job, deleting it removes it. The job runs once per installation ' +
      'at each due time, as the user who stored the pipeline last. `schedule` is one of ' +
      `${FIXED_SCHEDULES.join(', ')} (EVERY_2_MIN runs every 5 minutes, as in the real product), or a cron ` +
      'expression of 5 fields (minute first) or 6 (seconds first, one number), read in `timeZone` (default UTC). ' +
      'Runs missed while no instance was up are not replayed. When the pipeline runs, this step passes the body on.',
    parameters: {
      schedule: {
        type: 'string',
        description:
          'A fixed schedule (EVERY_15_MIN, HOURLY, DAILY, ...) or a cron expression, e.g. "0 7 * * 1-5".',
      },
      timeZone: {
        type: 'string',
        description: 'The IANA time zone the schedule is read in, e.g. Europe/Berlin. Default UTC.',
      },
      stop: {
        type: 'string',
        description: 'Deprecated in the real product; use job.stop. Not supported here: an error.',
      },
    },
    required: ['schedule'],
    defaultParameter: 'schedule',
    input: 'any',
    output: 'any',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'A reminder every weekday at 7 in Berlin',
        pipeline:
          'pipeline:\n  - job:\n      schedule: "0 7 * * 1-5"\n      timeZone: Europe/Berlin\n  - log: "Good morning"\n',
      },
    ],
  },
  (ctx) => {
    if (ctx.params.stop !== undefined) {
      throw new PipeworkError('PARAM_INVALID', 'job stop= is not supported: use job.stop.', {
        parameter: 'stop',
      });
    }
    if (ctx.step.index !== 0) {
      throw new PipeworkError('PARAM_INVALID', 'The job command must be the first command of the pipeline.');
    }
    parseJobSchedule(String(ctx.params.schedule), '', ctx.params.timeZone as string | undefined);
    return ctx.input;
  },
);
