/**
 * Pins (docs/runs.md): `GET /api/v3/pins?pipeline=<key>`, `POST /api/v3/runs/:id/pin` (the output a step gave
 * in that run) and `DELETE /api/v3/pins?pipeline=<key>&step=<n>`. Each answers the pipeline's pins.
 */
import { defineEndpoint, type None } from '../endpoint';
import type { RunId } from './run-endpoints';

/** A recorded step output kept beside a stored pipeline, used instead of that step in the workbench's runs. */
export interface Pin {
  /** The step's index in the pipeline (0-based, as in traces and errors). */
  stepIndex: number;
  /** The step's command when pinned: a pin is used only while the step at its index is still that command. */
  command: string;
  /** The output to use; absent for a command that gives none. */
  output?: unknown;
  /** The run the output was recorded in. */
  runId: string;
  pinnedAt: number;
  pinnedBy: string | null;
}

export interface PipelinePins {
  pipelineKey: string;
  pins: Pin[];
}

const MAX_STEP_INDEX = 100_000;
const pipeline = {
  type: 'string',
  minLength: 1,
  maxLength: 1000,
  description: 'The stored pipeline key.',
} as const;

export const listPins = defineEndpoint<None, { pipeline: string }, None, PipelinePins>({
  method: 'GET',
  path: '/api/v3/pins',
  summary: 'the pins of a pipeline',
  query: { type: 'object', properties: { pipeline }, required: ['pipeline'] },
});

export interface PinBody {
  stepIndex: number;
  /** The stored pipeline to pin it on; by default the run's own. */
  pipeline?: string;
}

export const pinStep = defineEndpoint<RunId, None, PinBody, PipelinePins>({
  method: 'POST',
  path: '/api/v3/runs/:id/pin',
  summary: 'pinning a step',
  query: { type: 'object', properties: {} },
  body: {
    type: 'object',
    properties: { stepIndex: { type: 'integer', minimum: 0, maximum: MAX_STEP_INDEX }, pipeline },
    required: ['stepIndex'],
  },
  maxBodyBytes: 4096,
});

export const unpinStep = defineEndpoint<None, { pipeline: string; step: number }, None, PipelinePins>({
  method: 'DELETE',
  path: '/api/v3/pins',
  summary: 'removing a pin',
  query: {
    type: 'object',
    properties: { pipeline, step: { type: 'integer', minimum: 0, maximum: MAX_STEP_INDEX } },
    required: ['pipeline', 'step'],
  },
});
