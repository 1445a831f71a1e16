/**
 * `POST /api/v3/pipeline/debug`: the workbench's run. Like `?trace=true`, plus the message (body, vars,
 * headers) each step saw, the final message, the final body's bytes (base64, so a PDF or image can be shown
 * without running twice), and runs that start at a chosen step with a message recorded by an earlier run.
 *
 * Request (JSON): {"pipeline": "<text>", "form": "yaml" | "json" | "uri", "fromStep"?: n,
 *                  "seed"?: {"body", "vars", "headers"}, "key"?: "<stored pipeline>", "pins"?: true}
 *                  (seed is required with fromStep)
 * `key` names the stored pipeline the editor holds (the run is recorded under it when the caller may read it);
 * with `pins: true` its pins stand in for their steps (docs/runs.md). Only this route honours pins.
 */
import type { Request, RequestHandler, Response } from 'express';
import { isPipeworkError, PipeworkError } from '../../shared/errors';
import { parsePipeline, type PipelineSourceKind } from '../../shared/pipeline';
import { runPipeline, type Cancellation, type RunResult } from '../../shared/runner';
import type { TraceStep } from '../../shared/runner/trace';
import { describeJsonRefusal, isBinaryContent, stringifyBounded } from '../../shared/values';
import type { Principal } from '../../shared/auth';
import { authorizeCommand } from '../pipeline/authorize-command';
import { PinningRegistry } from '../pipeline/pinning-registry';
import { pinsForRun, pinsForScript, type Pin } from '../runs/pins';
import { maskedError } from '../pipeline/execute-pipeline';
import { withSecretMask, type SecretMask } from '../runs/secret-mask';
import { utilitiesFor } from '../pipeline/pel-utilities';
import { errorBeforeRun } from '../pipeline/validate-before-run';
import {
  attachMessages,
  recordMessage,
  RecordingRegistry,
  scriptFromStep,
  SEED_COMMAND,
  seedCommand,
  type StepMessage,
} from '../pipeline/step-messages';
import type { ServerServices } from '../services';
import { parseJsonBody } from './json-body';
import { readBody } from './read-body';
import { MAX_RESPONSE_JSON_CHARS } from './send-result';
import { clientGone, requestScope } from './request-scope';

export const PIPELINE_DEBUG_PATH = '/api/v3/pipeline/debug';

/** Final bodies up to this size come back as base64 (larger ones as their size and type only). */
const MAX_INLINE_BYTES = 16 * 1024 * 1024;
const LOG_METHODS = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
const FORMS: readonly PipelineSourceKind[] = ['yaml', 'json', 'uri'];

interface DebugRequest {
  pipeline: string;
  form: PipelineSourceKind;
  fromStep?: number;
  seed?: StepMessage;
  key?: string;
  pins?: boolean;
}

function invalid(message: string, parameter: string): PipeworkError {
  return new PipeworkError('PARAM_INVALID', message, { parameter });
}

function isMap(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function readRequest(value: unknown): DebugRequest {
  if (!isMap(value)) throw new PipeworkError('BAD_REQUEST', 'The body must be a JSON object.');
  const { pipeline, form = 'yaml', fromStep, seed, key, pins } = value;
  if (typeof pipeline !== 'string') throw invalid("'pipeline' must be the pipeline's text.", 'pipeline');
  if (!FORMS.includes(form as PipelineSourceKind)) throw invalid("'form' must be yaml, json or uri.", 'form');
  if (key !== undefined && (typeof key !== 'string' || key.length > 1000))
    throw invalid("'key' must be a property key.", 'key');
  if (pins !== undefined && typeof pins !== 'boolean') throw invalid("'pins' must be true or false.", 'pins');
  if (pins === true && key === undefined) throw invalid("Pins need the pipeline's 'key'.", 'pins');
  const stored = { key, pins: pins === true };
  if (fromStep === undefined) return { pipeline, form: form as PipelineSourceKind, ...stored };
  if (typeof fromStep !== 'number') throw invalid("'fromStep' must be a step index.", 'fromStep');
  if (!isMap(seed) || !isMap(seed.vars ?? {}) || !isMap(seed.headers ?? {})) {
    throw invalid("A run from a step needs 'seed': the message {body, vars, headers} the step saw.", 'seed');
  }
  const message: StepMessage = {
    body: seed.body ?? null,
    vars: (seed.vars ?? {}) as Record<string, unknown>,
    headers: (seed.headers ?? {}) as Record<string, unknown>,
  };
  return { pipeline, form: form as PipelineSourceKind, fromStep, seed: message, ...stored };
}

/** The stored pipeline the run belongs to: named by the request and readable by the caller, else none. */
async function readableKey(
  services: ServerServices,
  principal: Principal,
  key: string | undefined,
): Promise<string | undefined> {
  if (key === undefined) return undefined;
  try {
    return (await services.properties.get(principal, key)).key;
  } catch (error) {
    if (isPipeworkError(error)) return undefined;
    throw error;
  }
}

/** Marks the trace entries of steps that used their pin (`pinned: true`). */
function markPinned<T extends TraceStep>(trace: T[], used: ReadonlySet<number>): T[] {
  if (used.size === 0) return trace;
  return trace.map((entry) =>
    used.has(entry.index) && entry.params !== undefined ? { ...entry, pinned: true } : entry,
  );
}

function withoutSeed(trace: TraceStep[] | undefined): TraceStep[] {
  return (trace ?? []).filter((entry) => entry.command !== SEED_COMMAND);
}

/** The final body for JSON: bytes as their description plus base64 when small enough. */
function answerBody(body: unknown): { body: unknown; bytes?: string } {
  if (!isBinaryContent(body)) return { body: body ?? null };
  const bytes =
    body.size <= MAX_INLINE_BYTES
      ? Buffer.from(body.data.buffer, body.data.byteOffset, body.data.byteLength).toString('base64')
      : undefined;
  return { body: body.toJSON(), bytes };
}

export function pipelineDebugHandler(services: ServerServices): RequestHandler {
  return (req, res, next) =>
    withSecretMask((mask) => debugRun(services, mask, req, res)).catch((error: unknown) => next(error));
}

async function debugRun(
  services: ServerServices,
  mask: SecretMask,
  req: Request,
  res: Response,
): Promise<void> {
  const text = (await readBody(req, services.config.limits.pipelineBodyBytes * 2)).toString('utf8');
  const request = readRequest(parseJsonBody(text));
  let script = parsePipeline(request.pipeline, request.form);
  // As every run: a mistake anywhere in the pipeline runs nothing, and all of them are answered at once.
  const refused = errorBeforeRun(script, services.commands, {
    principal: res.locals.principal,
    authorize: authorizeCommand,
  });
  if (refused) throw refused;
  if (request.fromStep !== undefined) {
    script = scriptFromStep(
      script,
      request.fromStep,
      (s) => services.commands.get(s.command)?.contract.controlFlow,
    );
  }
  const principal = res.locals.principal as Principal;
  const pipelineKey = await readableKey(services, principal, request.key);
  const pins =
    request.pins && pipelineKey !== undefined
      ? pinsForScript(script, await pinsForRun(services, principal, pipelineKey))
      : new Map<number, Pin>();
  const pinning = new PinningRegistry(services.commands, pins);
  const runRegistry = new RecordingRegistry(pinning, request.seed ? [seedCommand(request.seed)] : []);
  let result: RunResult;
  try {
    const debugRun = (cancellation: Cancellation) =>
      services.runSlots.run(res.locals.principal, cancellation, (maxMillis) =>
        runPipeline(script, {
          registry: runRegistry,
          services,
          principal: res.locals.principal,
          utilities: utilitiesFor(services),
          authorize: (principal, contract) => {
            if (contract.name !== SEED_COMMAND) authorizeCommand(principal, contract);
          },
          limits: {
            maxSteps: services.config.limits.pipelineSteps,
            maxMillis,
          },
          trace: true,
          request: () => requestScope(req),
          cancellation,
          onLog: (entry) =>
            services.logger[LOG_METHODS[entry.level]](
              {
                traceId: res.locals.traceId,
                command: entry.commandName,
                step: entry.commandIndex,
                debugRun: true,
              },
              mask.text(entry.message),
            ),
        }),
      );
    // Recorded like every run (trigger `workbench`), when the history is on; inside the mask, so masked too.
    result = services.runs.config.enabled
      ? await services.runs.recorder.record(
          script,
          {
            principal: res.locals.principal,
            trigger: { kind: 'workbench' },
            pipelineKey,
            source: { text: request.pipeline, form: request.form },
            trace: true,
            cancellation: clientGone(res),
          },
          (run) => debugRun(run.cancellation),
        )
      : await debugRun(clientGone(res));
  } catch (error) {
    if (isPipeworkError(error) && Array.isArray(error.details.trace)) {
      const trace = markPinned(
        attachMessages(withoutSeed(error.details.trace as TraceStep[]), runRegistry.snapshots),
        pinning.used,
      );
      throw maskedError(
        mask,
        new PipeworkError(error.code, error.message, { ...error.details, trace }, { cause: error.cause }),
      );
    }
    throw maskedError(mask, error);
  }
  const { chars: _chars, ...final } = recordMessage(result.scope);
  const answer = {
    status: 'ok',
    ...answerBody(result.body),
    stepsExecuted: result.stepsExecuted - (request.seed ? 1 : 0),
    durationMs: result.durationMs,
    fromStep: request.fromStep,
    trace: markPinned(attachMessages(withoutSeed(result.trace), runRegistry.snapshots), pinning.used),
    pinned: [...pinning.used],
    final,
  };
  const json = stringifyBounded(mask.value(answer), MAX_RESPONSE_JSON_CHARS);
  if (!json.ok) {
    throw new PipeworkError(
      'LIMIT_EXCEEDED',
      `The run's answer ${describeJsonRefusal(json.reason, MAX_RESPONSE_JSON_CHARS)}.`,
      {
        limit: 'response',
      },
    );
  }
  res.type('application/json; charset=utf-8').send(json.text);
}
