/** What a workbench run answers (POST /api/v3/pipeline/debug): the trace with each step's message. */
import type { ApiError } from '../api';
import type { PipelineForm } from '../editor';
import type { TraceStep } from '../../../shared/runner/trace';

import type { StepMessage } from '../../../shared/runs/run-wire';

export type { StepMessage };

/** A step of the trace as the runner records it, with what the workbench run adds. */
export interface TraceEntry extends TraceStep {
  /** The message (body, vars, headers) the step was called with. */
  message?: StepMessage;
  /** False when the message holds stand-ins (bytes, cut values): it cannot start a run. */
  exact?: boolean;
  /** Set on rows kept from the previous run by a run from a later step. */
  kept?: boolean;
  /** The step's pin stood in for it: the command did not run. */
  pinned?: boolean;
}

/** The final body: a value, or bytes (with a Blob when they came inline). */
export type RunBody =
  | { kind: 'value'; value: unknown }
  | { kind: 'bytes'; mimeType: string; size: number; name?: string; blob?: Blob };

interface RunCommon {
  trace: TraceEntry[];
  /** The step this run started at (0 for a whole run). */
  fromStep: number;
  /** The pipeline text that ran and its form (which steps can start a later run is read from it). */
  source: string;
  form: PipelineForm;
  finishedAt: number;
}

export type RunOutcome =
  | (RunCommon & {
      ok: true;
      body: RunBody;
      stepsExecuted: number;
      durationMs: number;
      final?: { message: StepMessage; exact: boolean };
    })
  | (RunCommon & { ok: false; error: ApiError });
