/** Runs the document's pipeline through the workbench run endpoint and reads its answer. */
import { ApiError, apiErrorOf, type ApiClient } from '../api';
import type { PipelineForm } from '../editor';
import type { RunBody, RunOutcome, StepMessage, TraceEntry } from './run-types';

export interface RunRequest {
  pipeline: string;
  form: PipelineForm;
  fromStep?: number;
  seed?: StepMessage;
  /** The stored pipeline the text belongs to, and whether its pins stand in for their steps. */
  key?: string;
  pins?: boolean;
}

interface BinaryStandIn {
  $binary: true;
  size: number;
  mimeType: string;
  name?: string;
}

function isBinaryStandIn(value: unknown): value is BinaryStandIn {
  return typeof value === 'object' && value !== null && (value as { $binary?: unknown }).$binary === true;
}

function bodyOf(body: unknown, bytes: string | undefined): RunBody {
  if (!isBinaryStandIn(body)) return { kind: 'value', value: body };
  const blob =
    bytes === undefined
      ? undefined
      : new Blob([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], { type: body.mimeType });
  return { kind: 'bytes', mimeType: body.mimeType, size: body.size, name: body.name, blob };
}

interface DebugAnswer {
  body: unknown;
  bytes?: string;
  stepsExecuted: number;
  durationMs: number;
  trace: TraceEntry[];
  final?: { message: StepMessage; exact: boolean };
}

export async function runPipeline(
  api: ApiClient,
  request: RunRequest,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const common = {
    fromStep: request.fromStep ?? 0,
    source: request.pipeline,
    form: request.form,
    finishedAt: 0,
  };
  let response: Response;
  try {
    response = await api.fetch('/api/v3/pipeline/debug', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal,
    });
  } catch (failure) {
    if (signal?.aborted) throw failure;
    const error = new ApiError(0, { code: 'NETWORK', message: 'The server cannot be reached.' });
    return { ...common, ok: false, error, trace: [], finishedAt: Date.now() };
  }
  if (!response.ok) {
    const error = await apiErrorOf(response);
    const trace = Array.isArray(error.value.trace) ? (error.value.trace as TraceEntry[]) : [];
    return { ...common, ok: false, error, trace, finishedAt: Date.now() };
  }
  const answer = (await response.json()) as DebugAnswer;
  return {
    ...common,
    ok: true,
    body: bodyOf(answer.body, answer.bytes),
    stepsExecuted: answer.stepsExecuted,
    durationMs: answer.durationMs,
    trace: answer.trace,
    final: answer.final,
    finishedAt: Date.now(),
  };
}
