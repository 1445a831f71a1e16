/** Runs the document's pipeline through the workbench run endpoint and reads its answer. */
import { debugRun, type DebugRunAnswer, type DebugRunRequest } from '../../../shared/api';
import { isContentObjectJson } from '../../../shared/values';
import { ApiError, callEndpoint, type ApiClient } from '../api';
import type { PipelineForm } from '../editor';
import type { RunBody, RunOutcome, TraceEntry } from './run-types';

export type RunRequest = DebugRunRequest & { form: PipelineForm };

function bodyOf(body: unknown, bytes: string | undefined): RunBody {
  if (!isContentObjectJson(body)) return { kind: 'value', value: body };
  const blob =
    bytes === undefined
      ? undefined
      : new Blob([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], { type: body.mimeType });
  return { kind: 'bytes', mimeType: body.mimeType, size: body.size, name: body.name, blob };
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
  let answer: DebugRunAnswer;
  try {
    answer = await callEndpoint(api, debugRun, { body: request, signal });
  } catch (failure) {
    if (failure instanceof ApiError) {
      const trace = Array.isArray(failure.value.trace) ? (failure.value.trace as TraceEntry[]) : [];
      return { ...common, ok: false, error: failure, trace, finishedAt: Date.now() };
    }
    if (signal?.aborted) throw failure;
    const error = new ApiError(0, { code: 'NETWORK', message: 'The server cannot be reached.' });
    return { ...common, ok: false, error, trace: [], finishedAt: Date.now() };
  }
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
