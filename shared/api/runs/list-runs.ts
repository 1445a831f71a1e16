/** `GET /api/v3/runs`: the runs the caller may see, newest first, filtered and paged (docs/runs.md). */
import {
  RUN_STATUSES,
  RUN_TRIGGER_KINDS,
  type RunStatus,
  type RunSummary,
  type RunTriggerKind,
} from '../../runs/run-wire';
import { defineEndpoint, type None } from '../endpoint';

export const MAX_RUNS_PAGE = 500;

export interface ListRunsQuery {
  pipeline?: string;
  status?: RunStatus;
  trigger?: RunTriggerKind;
  user?: string;
  /** Epoch milliseconds or an ISO date. */
  from?: string;
  to?: string;
  /** Text in the run's input or error. */
  q?: string;
  parent?: string;
  limit?: number;
  offset?: number;
}

export interface RunPage {
  runs: RunSummary[];
  total: number;
  limit: number;
  offset: number;
}

const when = {
  type: 'string',
  maxLength: 40,
  description: 'Epoch milliseconds or an ISO date.',
} as const;

export const listRuns = defineEndpoint<None, ListRunsQuery, None, RunPage>({
  method: 'GET',
  path: '/api/v3/runs',
  summary: 'the run list',
  query: {
    type: 'object',
    properties: {
      pipeline: { type: 'string', maxLength: 1000, description: 'A stored pipeline key.' },
      status: { type: 'string', enum: [...RUN_STATUSES, ''] },
      trigger: { type: 'string', enum: [...RUN_TRIGGER_KINDS, ''] },
      user: { type: 'string', maxLength: 200 },
      from: when,
      to: when,
      q: { type: 'string', description: 'Text in the input or error (the first 200 characters count).' },
      parent: { type: 'string', maxLength: 64 },
      limit: { type: 'integer', minimum: 0, maximum: MAX_RUNS_PAGE },
      offset: { type: 'integer', minimum: 0 },
    },
  },
});
