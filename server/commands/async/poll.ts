/** `async.poll`: the state of an async run, with its result once it has finished. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { asyncRunOf, asyncTaskOf, correlationIdParameter } from './async-task';

export const asyncPoll = defineCommand<ServerServices>(
  {
    name: 'async.poll',
    summary: 'Returns the state of an async run; once it has finished, with its result as `value`.',
    description:
      '`status` is `running` (queued or running, `statusCode` 202), `finished` (200, the final body as `value`), ' +
      '`error` (the error’s HTTP status, its message as `statusMessage`) or `cancelled`. An unknown id, or another ' +
      'user’s run, is NOT_FOUND (an admin sees every run). Unlike the real product this never answers a redirect: ' +
      '`redirect` is accepted and changes nothing; poll again while `status` is `running`.',
    parameters: {
      ...correlationIdParameter,
      redirect: {
        type: 'boolean',
        default: false,
        description: 'Accepted for compatibility; Pipework always answers the state (no 301 redirect).',
      },
    },
    required: ['correlationId'],
    defaultParameter: 'correlationId',
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Poll an async run',
        pipeline: 'pipeline:\n  - async.poll:\n      correlationId: 254d7d80-4530-431a-a0cc-c606e8faa406\n',
      },
    ],
  },
  async (ctx) => asyncTaskOf(await asyncRunOf(ctx.services, ctx.principal, String(ctx.params.correlationId))),
);
