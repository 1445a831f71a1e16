/**
 * An async run as the real product's async commands show a task: `correlationId` (the run id), `status`
 * (`running` while queued or running, `finished`, `error`, `cancelled`), `statusCode`, `value` once finished,
 * `statusMessage` on error, `created`; and ours: `runStatus` (the run's own status) and `statusUrl`.
 */
import type { Principal } from '../../../shared/auth';
import { PipeworkError, statusOf, type ErrorCode, ERROR_CODES } from '../../../shared/errors';
import { RUNS_PATH } from '../../http/async-answer';
import type { RunDetail, RunStatus, RunSummary } from '../../runs';
import type { ServerServices } from '../../services';

export type AsyncTaskStatus = 'running' | 'finished' | 'error' | 'cancelled';

export const ASYNC_TASK_STATUSES: readonly AsyncTaskStatus[] = ['running', 'finished', 'error', 'cancelled'];

export function taskStatusOf(status: RunStatus): AsyncTaskStatus {
  if (status === 'succeeded') return 'finished';
  if (status === 'failed') return 'error';
  if (status === 'cancelled') return 'cancelled';
  return 'running';
}

/** The run statuses a task status stands for (the list's filter). */
export function runStatusesOf(status: AsyncTaskStatus): RunStatus[] {
  if (status === 'running') return ['queued', 'running'];
  return [status === 'finished' ? 'succeeded' : status === 'error' ? 'failed' : 'cancelled'];
}

function errorStatusCode(run: RunSummary): number {
  const code = run.error?.code;
  return code !== undefined && code in ERROR_CODES ? statusOf(code as ErrorCode) : 500;
}

/** The task view of a run; `value` only for a detail (the list leaves results out). */
export function asyncTaskOf(run: RunSummary | RunDetail): Record<string, unknown> {
  const status = taskStatusOf(run.status);
  const task: Record<string, unknown> = {
    correlationId: run.id,
    status,
    statusCode: status === 'running' ? 202 : status === 'error' ? errorStatusCode(run) : 200,
    created: run.created,
    runStatus: run.status,
    statusUrl: `${RUNS_PATH}/${run.id}`,
  };
  if (status === 'finished' && 'output' in run) task.value = run.output;
  if (status === 'error') task.statusMessage = run.error?.message ?? 'The run failed.';
  if (status === 'cancelled') task.statusMessage = run.error?.message ?? 'The run was cancelled.';
  return task;
}

/** The caller's async run by its correlation id; NOT_FOUND for an unknown id, another user's run, or a run not started async. */
export async function asyncRunOf(
  services: ServerServices,
  principal: Principal | null,
  correlationId: string,
): Promise<RunDetail> {
  if (!principal) throw new PipeworkError('NOT_FOUND', `No async task has the id '${correlationId}'.`);
  const run = await services.runs.get(principal, correlationId);
  if (!run.async) {
    throw new PipeworkError('NOT_FOUND', `No run has the id '${correlationId.slice(0, 64)}'.`, {
      runId: correlationId,
    });
  }
  return run;
}

export const correlationIdParameter = {
  correlationId: {
    type: 'string' as const,
    minLength: 1,
    maxLength: 64,
    description: 'The id the async start answered (the run id).',
  },
};
