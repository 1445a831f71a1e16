/** One run: `GET /api/v3/runs/:id`, `POST .../cancel`, `POST .../rerun` (docs/runs.md). */
import type { RunDetail, RunSummary } from '../../runs/run-wire';
import { defineEndpoint, type None } from '../endpoint';

export interface RunId {
  id: string;
}

export const getRun = defineEndpoint<RunId, None, None, RunDetail>({
  method: 'GET',
  path: '/api/v3/runs/:id',
  summary: 'a run',
  query: { type: 'object', properties: {} },
});

export const cancelRun = defineEndpoint<RunId, None, None, RunSummary>({
  method: 'POST',
  path: '/api/v3/runs/:id/cancel',
  summary: 'cancelling a run',
  query: { type: 'object', properties: {} },
});

export interface RerunQuery {
  /** `workbench`: recorded as started from the workbench. */
  source?: 'workbench' | 'http';
  /** `failed`: the same as `fromFailedStep` in the body. */
  from?: 'failed';
}

export interface RerunBody {
  /** Start at the step that failed, with the message it saw. */
  fromFailedStep?: boolean;
  /** A changed pipeline text to run instead of the recorded one. */
  pipeline?: string;
  form?: 'yaml' | 'json' | 'uri';
}

/** `202` with the new run's id and its status URL. */
export interface RunStarted {
  runId: string;
  statusUrl?: string;
}

export const rerunRun = defineEndpoint<RunId, RerunQuery, RerunBody, RunStarted>({
  method: 'POST',
  path: '/api/v3/runs/:id/rerun',
  summary: 'a re-run',
  query: {
    type: 'object',
    properties: {
      source: { type: 'string', enum: ['workbench', 'http'] },
      from: { type: 'string', enum: ['failed'] },
    },
  },
  body: {
    type: 'object',
    properties: {
      fromFailedStep: { type: 'boolean' },
      pipeline: { type: 'string' },
      form: { type: 'string', enum: ['yaml', 'json', 'uri'] },
    },
  },
});
