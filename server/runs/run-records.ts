/** The run model: one record per pipeline execution, however it was started (docs/runs.md). */
import type { TraceStep } from '../../shared/runner/trace';
import type { RunTrigger } from './run-trigger';
import type { StepMessage } from '../pipeline/step-messages';
import type { RunError, RunStatus } from '../../shared/runs/run-wire';

export { RUN_STATUSES, type RunError, type RunStatus } from '../../shared/runs/run-wire';

/** A finished run's status is final; a queued or running one may still change. */
export function isFinished(status: RunStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'cancelled';
}

/** The message the failed step saw: what a re-run from that step starts with. */
export interface RunResumePoint {
  stepIndex: number;
  message: StepMessage;
  /** False when a value was bytes or too large: the message is a stand-in and cannot seed a run. */
  exact: boolean;
}

/** What the run list shows of a run. */
export interface RunSummary {
  id: string;
  /** The stored pipeline's key; null for inline text. */
  pipelineKey: string | null;
  /** SHA-256 (hex, first 16) of the pipeline's text, or of its parsed steps when there is no text. */
  pipelineHash: string;
  trigger: RunTrigger;
  /** The run that started this one (`pipeline.start`, `call`), or the one a re-run repeats. */
  parentId: string | null;
  username: string | null;
  userUuid: string | null;
  status: RunStatus;
  created: number;
  started: number | null;
  finished: number | null;
  durationMs: number | null;
  stepsExecuted: number | null;
  error: RunError | null;
  /** Which instance ran it (several instances on one PostgreSQL). */
  instance: string;
  /** Started in the background (an async run: polled by its id, listed by `async.list`). */
  async: boolean;
}

/** One run with everything recorded of it. */
export interface RunDetail extends RunSummary {
  /** The pipeline's text as run (inline runs; stored ones keep their key), when known. */
  source: { text: string; form: 'yaml' | 'json' | 'uri' } | null;
  /** The body the run started with, redacted and cut to a bound. */
  input: unknown;
  /** The final body, redacted and cut to a bound (succeeded runs). */
  output: unknown;
  /** The per-step trace; null when this successful run was not sampled. */
  steps: TraceStep[] | null;
  resume: RunResumePoint | null;
}
