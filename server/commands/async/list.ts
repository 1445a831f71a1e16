/** `async.list`: the caller's async runs (an admin's: everyone's), newest first, in the task shape. */
import { defineCommand } from '../../../shared/commands';
import type { RunSummary } from '../../runs';
import type { ServerServices } from '../../services';
import { ASYNC_TASK_STATUSES, asyncTaskOf, runStatusesOf, type AsyncTaskStatus } from './async-task';

const MAX_LIST = 500;

export const asyncList = defineCommand<ServerServices>(
  {
    name: 'async.list',
    summary: 'Lists the caller’s async runs, newest first (an admin: everyone’s), optionally in one state.',
    description:
      'Each as `async.poll` shows it, without `value`. The reference names the filter `status` and, in its ' +
      'example, `state`: both are accepted. Use `async.poll` to wait for one run.',
    parameters: {
      status: {
        type: 'string',
        enum: [...ASYNC_TASK_STATUSES],
        description: 'Only runs in this state.',
      },
      state: { type: 'string', enum: [...ASYNC_TASK_STATUSES], description: 'The same as status.' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_LIST,
        default: 100,
        description: 'How many runs at most.',
      },
    },
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      { title: 'The async runs that failed', pipeline: 'pipeline:\n  - async.list:\n      state: error\n' },
    ],
  },
  async (ctx) => {
    const wanted = (ctx.params.status ?? ctx.params.state) as AsyncTaskStatus | undefined;
    const limit = typeof ctx.params.limit === 'number' ? ctx.params.limit : 100;
    if (!ctx.principal) return [];
    const runs: RunSummary[] = [];
    for (const status of wanted === undefined ? [undefined] : runStatusesOf(wanted)) {
      const page = await ctx.services.runs.list(ctx.principal, { async: true, status, limit, offset: 0 });
      runs.push(...page.runs);
    }
    runs.sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
    return runs.slice(0, limit).map(asyncTaskOf);
  },
);
