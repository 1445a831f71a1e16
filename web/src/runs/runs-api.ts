/** The run history and pins as the Runs view calls them (server/runs/runs-routes.ts, pins-routes.ts). */
import { apiErrorOf, type ApiClient } from '../api';
import type { TraceEntry } from '../run/run-types';

import type { RunError, RunStatus, RunTriggerKind } from '../../../shared/runs/run-wire';

export {
  RUN_STATUSES,
  RUN_TRIGGER_KINDS as RUN_TRIGGERS,
  type RunError,
  type RunStatus,
  type RunTriggerKind,
} from '../../../shared/runs/run-wire';

export interface RunSummary {
  id: string;
  pipelineKey: string | null;
  pipelineHash: string;
  trigger: { kind: RunTriggerKind; source?: string };
  parentId: string | null;
  username: string | null;
  status: RunStatus;
  created: number;
  started: number | null;
  finished: number | null;
  durationMs: number | null;
  stepsExecuted: number | null;
  error: RunError | null;
}

export interface RunDetail extends RunSummary {
  source: { text: string; form: 'yaml' | 'json' | 'uri' } | null;
  input: unknown;
  output: unknown;
  steps: TraceEntry[] | null;
  resume: { stepIndex: number; exact: boolean } | null;
}

export interface RunFilter {
  pipeline?: string;
  status?: RunStatus | '';
  trigger?: RunTriggerKind | '';
  q?: string;
}

export interface RunPage {
  runs: RunSummary[];
  total: number;
}

export interface Pin {
  stepIndex: number;
  command: string;
  runId: string;
  pinnedAt: number;
  pinnedBy: string | null;
}

export interface PipelinePins {
  pipelineKey: string;
  pins: Pin[];
}

async function json<T>(api: ApiClient, path: string, init?: RequestInit): Promise<T> {
  const response = await api.fetch(path, init);
  if (!response.ok) throw await apiErrorOf(response);
  return (await response.json()) as T;
}

const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export function listRuns(api: ApiClient, filter: RunFilter, limit = 100): Promise<RunPage> {
  const query = new URLSearchParams({ limit: String(limit) });
  for (const name of ['pipeline', 'status', 'trigger', 'q'] as const) {
    const value = filter[name]?.trim();
    if (value) query.set(name, value);
  }
  return json(api, `/api/v3/runs?${query}`);
}

export const getRun = (api: ApiClient, id: string) =>
  json<RunDetail>(api, `/api/v3/runs/${encodeURIComponent(id)}`);

export const cancelRun = (api: ApiClient, id: string) =>
  json<RunSummary>(api, `/api/v3/runs/${encodeURIComponent(id)}/cancel`, { method: 'POST' });

/** A new run of a recorded one (from its failed step with `fromFailedStep`): answers the new run's id. */
export const rerun = (api: ApiClient, id: string, fromFailedStep: boolean) =>
  json<{ runId: string }>(
    api,
    `/api/v3/runs/${encodeURIComponent(id)}/rerun?source=workbench`,
    postJson({ fromFailedStep }),
  );

export const listPins = (api: ApiClient, pipelineKey: string) =>
  json<PipelinePins>(api, `/api/v3/pins?${new URLSearchParams({ pipeline: pipelineKey })}`);

export const pinStep = (api: ApiClient, runId: string, stepIndex: number, pipelineKey: string) =>
  json<PipelinePins>(
    api,
    `/api/v3/runs/${encodeURIComponent(runId)}/pin`,
    postJson({ stepIndex, pipeline: pipelineKey }),
  );

export const unpinStep = (api: ApiClient, pipelineKey: string, stepIndex: number) =>
  json<PipelinePins>(
    api,
    `/api/v3/pins?${new URLSearchParams({ pipeline: pipelineKey, step: String(stepIndex) })}`,
    { method: 'DELETE' },
  );

/** Only a pipeline stored in an app can have pins (`<app>/pipeline/<name>`, as the server decides). */
export function mayHavePins(key: string | undefined): key is string {
  return key !== undefined && /^(global|[^/]+\/[^/]+)\/app\/[^/]+\/pipeline\/.+/.test(key);
}
