/** What a workbench run answers (POST /api/v3/pipeline/debug): the trace with each step's message. */
import type { ApiError } from '../api';
import type { PipelineForm } from '../editor';
import type { DebugTraceStep } from '../../../shared/api';

import type { StepMessage } from '../../../shared/runs/run-wire';

export type { StepMessage };

/** A step of the trace as the workbench run answers it (`shared/api/pipeline/debug-run.ts`), as shown. */
export interface TraceEntry extends DebugTraceStep {
  /** Set on rows kept from the previous run by a run from a later step. */
  kept?: boolean;
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
