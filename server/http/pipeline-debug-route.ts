/**
 * The workbench's run (`shared/api/pipeline/debug-run.ts`): the run with every step's message, runs from a
 * chosen step with a recorded message, and the pins of the stored pipeline the editor holds. Only this route
 * honours pins.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { debugRun as debugRunEndpoint, type DebugRunRequest } from '../../shared/api';
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
import { servicesInRun } from '../runs/run-services';
import { SecretMask } from '../runs/secret-mask';
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
import { serveEndpoint } from './endpoint-route';
import { MAX_RESPONSE_JSON_CHARS } from './send-result';
import { clientGone, requestScope } from './request-scope';

/** Final bodies up to this size come back as base64 (larger ones as their size and type only). */
const MAX_INLINE_BYTES = 16 * 1024 * 1024;
const LOG_METHODS = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

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

/** The checks across fields the endpoint's schema cannot say. */
function readRequest(body: DebugRunRequest): DebugRequest {
  const { pipeline, form = 'yaml', fromStep, seed, key, pins } = body;
  if (pins === true && key === undefined) throw invalid("Pins need the pipeline's 'key'.", 'pins');
  const stored = { key, pins: pins === true };
  if (fromStep === undefined) return { pipeline, form, ...stored };
  if (seed === undefined) {
    throw invalid("A run from a step needs 'seed': the message {body, vars, headers} the step saw.", 'seed');
  }
  const message: StepMessage = {
    body: seed.body ?? null,
    vars: seed.vars ?? {},
    headers: seed.headers ?? {},
  };
  return { pipeline, form, fromStep, seed: message, ...stored };
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

/** The workbench's run, behind the authentication (`caller`). */
export function pipelineDebugRoutes(services: ServerServices, caller: RequestHandler): Router {
  const router = Router();
  serveEndpoint(
    router,
    debugRunEndpoint,
    [caller],
    async ({ body, req, res }) => {
      await debugRun(services, new SecretMask(), readRequest(body), req, res);
      return undefined;
    },
    { maxBodyBytes: services.config.limits.pipelineBodyBytes * 2 },
  );
  return router;
}

async function debugRun(
  services: ServerServices,
  mask: SecretMask,
  request: DebugRequest,
  req: Request,
  res: Response,
): Promise<void> {
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
    const debugRun = (cancellation: Cancellation, runId?: string) =>
      services.runSlots.run(res.locals.principal, cancellation, (maxMillis) =>
        runPipeline(script, {
          registry: runRegistry,
          services: servicesInRun(services, { mask, runId, nesting: 0 }),
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
    // Recorded like every run (trigger `workbench`), when the history is on; with the run's mask, so masked too.
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
          (run) => debugRun(run.cancellation, run.id),
          mask,
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
