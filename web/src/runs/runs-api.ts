/** The run history and pins as the Runs view calls them: the endpoints of `shared/api/runs`. */
import * as endpoints from '../../../shared/api';
import type { RunDetail, RunStatus, RunSummary, RunTriggerKind } from '../../../shared/runs/run-wire';
import { callEndpoint, type ApiClient } from '../api';
import type { TraceEntry } from '../run/run-types';

export {
  RUN_STATUSES,
  RUN_TRIGGER_KINDS as RUN_TRIGGERS,
  type RunError,
  type RunStatus,
  type RunSummary,
  type RunTriggerKind,
} from '../../../shared/runs/run-wire';
export type { Pin, PipelinePins, RunPage } from '../../../shared/api';

/** A run as the Runs view shows it: its steps as the workbench's trace rows. */
export interface RunView extends Omit<RunDetail, 'steps'> {
  steps: TraceEntry[] | null;
}

export interface RunFilter {
  pipeline?: string;
  status?: RunStatus | '';
  trigger?: RunTriggerKind | '';
  q?: string;
}

export function listRuns(api: ApiClient, filter: RunFilter, limit = 100) {
  return callEndpoint(api, endpoints.listRuns, {
    query: {
      limit,
      pipeline: filter.pipeline?.trim(),
      status: filter.status || undefined,
      trigger: filter.trigger || undefined,
      q: filter.q?.trim(),
    },
  });
}

export const getRun = async (api: ApiClient, id: string): Promise<RunView> =>
  (await callEndpoint(api, endpoints.getRun, { params: { id } })) as RunView;

export const cancelRun = (api: ApiClient, id: string): Promise<RunSummary> =>
  callEndpoint(api, endpoints.cancelRun, { params: { id } });

/** A new run of a recorded one (from its failed step with `fromFailedStep`): answers the new run's id. */
export const rerun = (api: ApiClient, id: string, fromFailedStep: boolean) =>
  callEndpoint(api, endpoints.rerunRun, {
    params: { id },
    query: { source: 'workbench' },
    body: { fromFailedStep },
  });

export const listPins = (api: ApiClient, pipelineKey: string) =>
  callEndpoint(api, endpoints.listPins, { query: { pipeline: pipelineKey } });

export const pinStep = (api: ApiClient, runId: string, stepIndex: number, pipelineKey: string) =>
  callEndpoint(api, endpoints.pinStep, { params: { id: runId }, body: { stepIndex, pipeline: pipelineKey } });

export const unpinStep = (api: ApiClient, pipelineKey: string, stepIndex: number) =>
  callEndpoint(api, endpoints.unpinStep, { query: { pipeline: pipelineKey, step: stepIndex } });

/** Only a pipeline stored in an app can have pins (`<app>/pipeline/<name>`, as the server decides). */
export function mayHavePins(key: string | undefined): key is string {
  return key !== undefined && /^(global|[^/]+\/[^/]+)\/app\/[^/]+\/pipeline\/.+/.test(key);
}
