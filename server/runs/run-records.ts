/** The run model: one record per pipeline execution, however it was started (docs/runs.md). */
import type { RunStatus } from '../../shared/runs/run-wire';

export {
  RUN_STATUSES,
  type RunDetail,
  type RunError,
  type RunResumePoint,
  type RunStatus,
  type RunSummary,
} from '../../shared/runs/run-wire';

/** A finished run's status is final; a queued or running one may still change. */
export function isFinished(status: RunStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}
