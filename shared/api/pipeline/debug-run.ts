/**
 * `POST /api/v3/pipeline/debug`: the workbench's run. Like `?trace=true`, plus the message (body, vars,
 * headers) each step saw, the final message, the final body's bytes (base64, so a PDF or image can be shown
 * without running twice), and runs that start at a chosen step with a message recorded by an earlier run.
 * `key` names the stored pipeline the editor holds (the run is recorded under it when the caller may read
 * it); with `pins: true` its pins stand in for their steps (docs/runs.md).
 */
import type { TraceStep } from '../../runner/trace';
import type { StepMessage } from '../../runs/run-wire';
import type { ContentObjectJson } from '../../values';
import { defineEndpoint, type None } from '../endpoint';

export type PipelineForm = 'yaml' | 'json' | 'uri';

export interface DebugRunRequest {
  pipeline: string;
  form?: PipelineForm;
  /** Start at this step, with `seed` as the message it is called with. */
  fromStep?: number;
  seed?: Partial<StepMessage>;
  key?: string;
  pins?: boolean;
}

/** A trace row with what the workbench run adds. */
export interface DebugTraceStep extends TraceStep {
  /** The message the step was called with. */
  message?: StepMessage;
  /** False when the message holds stand-ins (bytes, cut values): it cannot start a run. */
  exact?: boolean;
  /** The step's pin stood in for it: the command did not run. */
  pinned?: boolean;
}

export interface DebugRunAnswer {
  status: 'ok';
  /** The final body; content is described (`$binary`), its bytes in `bytes` when small enough. */
  body: unknown | ContentObjectJson;
  bytes?: string;
  stepsExecuted: number;
  durationMs: number;
  fromStep?: number;
  trace: DebugTraceStep[];
  /** The indexes of the steps whose pins stood in. */
  pinned: number[];
  final: { message: StepMessage; exact: boolean };
}

const message = {
  type: 'object',
  properties: {
    body: {},
    vars: { type: 'object' },
    headers: { type: 'object' },
  },
  additionalProperties: false,
} as const;

export const debugRun = defineEndpoint<None, None, DebugRunRequest, DebugRunAnswer>({
  method: 'POST',
  path: '/api/v3/pipeline/debug',
  summary: 'a workbench run',
  query: { type: 'object', properties: {} },
  body: {
    type: 'object',
    properties: {
      pipeline: { type: 'string', description: "The pipeline's text." },
      form: { type: 'string', enum: ['yaml', 'json', 'uri'] },
      fromStep: { type: 'integer', minimum: 0 },
      seed: message,
      key: { type: 'string', maxLength: 1000 },
      pins: { type: 'boolean' },
    },
    required: ['pipeline'],
  },
});
