/** `async.cancel` and `async.ping`: act on one async run by its correlation id. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { asyncRunOf, asyncTaskOf, correlationIdParameter } from './async-task';

export const asyncCancel = defineCommand<ServerServices>(
  {
    name: 'async.cancel',
    summary: 'Cancels an async run: a queued one never starts, a running one stops at its next step.',
    description:
      'Answers the run’s state afterwards. A run running on another instance is cancelled there within a ' +
      'second. Cancelling a finished run changes nothing and is no error (the first caller wins).',
    parameters: correlationIdParameter,
    required: ['correlationId'],
    defaultParameter: 'correlationId',
    input: 'none',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Cancel an async run',
        pipeline: 'pipeline:\n  - async.cancel:\n      correlationId: 254d7d80-4530-431a-a0cc-c606e8faa406\n',
      },
    ],
  },
  async (ctx) => {
    const run = await asyncRunOf(ctx.services, ctx.principal, String(ctx.params.correlationId));
    return asyncTaskOf(await ctx.services.runs.cancel(ctx.principal!, run.id));
  },
);

export const asyncPing = defineCommand<ServerServices>(
  {
    name: 'async.ping',
    summary: 'Says there is still interest in an async run; answers its state.',
    description:
      'Pipework never cancels an async run for want of interest (only the pipeline time limit ends it), so ' +
      'the ping changes nothing; it is accepted so that the real product’s pipelines run unchanged.',
    parameters: correlationIdParameter,
    required: ['correlationId'],
    defaultParameter: 'correlationId',
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'user',
  },
  async (ctx) => {
    const task = asyncTaskOf(await asyncRunOf(ctx.services, ctx.principal, String(ctx.params.correlationId)));
    delete task.value;
    return task;
  },
);
