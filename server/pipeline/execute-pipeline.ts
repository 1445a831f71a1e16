/** Runs a parsed pipeline on the server: the registry, permissions, utilities, limits and logging wired in. */
import type { Principal } from '../../shared/auth';
import { isPipeworkError } from '../../shared/errors';
import { CommandRegistry } from '../../shared/commands';
import type { PipelineScript } from '../../shared/pipeline';
import { runPipeline, type Cancellation, type RunPipelineOptions, type RunResult } from '../../shared/runner';
import { LastStepRegistry } from '../runs/last-step-registry';
import type { ActiveRun } from '../runs/run-recorder';
import type { RunTrigger } from '../runs/run-trigger';
import type { ServerServices } from '../services';
import { authorizeCommand } from './authorize-command';
import { utilitiesFor } from './pel-utilities';
import { servicesInRun } from '../runs/run-services';
import { SecretMask } from '../runs/secret-mask';
import { errorBeforeRun, type AuthorizeStep } from './validate-before-run';

export type { RunTrigger, RunTriggerKind } from '../runs/run-trigger';

export interface ExecuteOptions {
  principal: Principal | null;
  /** How the run was started; a run without one is counted as `http`. */
  trigger?: RunTrigger;
  /** The stored pipeline's key, when the run is of a stored pipeline (an inline run has none). */
  pipelineKey?: string;
  trace?: boolean;
  /** The `request` root: query parameters and (lower-cased) headers of the HTTP call, when there is one. */
  request?: unknown;
  cancellation?: Cancellation;
  traceId?: string;
  /**
   * A run the server starts for a request or a trigger (not one a running pipeline starts): it holds one of
   * its user's run slots (`fairness/run-slots.ts`), waiting fairly for one when all are taken.
   */
  topLevel?: boolean;
  /** The one command a caller without credentials may run (the public token commands). */
  publicCommand?: string;
  /** The run's id when it was handed out before the run (async runs: `startAsyncRun`). */
  runId?: string;
  /** The run that started this one, when not the run of the services given (a re-run: the run it repeats). */
  parentRunId?: string;
  /** The pipeline's text, kept in the run history so an inline run can be repeated. */
  source?: { text: string; form: 'yaml' | 'json' | 'uri' };
  /** Keep the final body in the run history (async runs: what a poller fetches). */
  keepOutput?: boolean;
}

/** Builds a run's `prepareStep` over its own table of prefetched URIs (`server/uri/prefetch-uris.ts`). */
export type StepPreparerFactory = (
  services: ServerServices,
  prefetched: Map<string, unknown>,
) => RunPipelineOptions<ServerServices>['prepareStep'];

let stepPreparer: StepPreparerFactory | null = null;

/**
 * The composition root plugs in the URI prefetcher here (it runs stored pipelines, which run through this
 * module: a static import would be a cycle).
 */
export function registerStepPreparer(factory: StepPreparerFactory | null): void {
  stepPreparer = factory;
}

const LOG_METHODS = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/**
 * Runs the pipeline as a run of its own. `services` may be a running pipeline's (`ctx.services`): a run
 * started in place shares that run's secret mask and nesting and is recorded as its child; a top-level run
 * started from a pipeline (async) gets a mask of its own.
 */
export function executePipeline(
  services: ServerServices,
  script: PipelineScript,
  options: ExecuteOptions,
): Promise<RunResult> {
  const caller = services.run;
  const inPlace = caller !== undefined && options.topLevel !== true;
  const mask = inPlace ? caller.mask : new SecretMask();
  const nesting = inPlace ? caller.nesting : 0;
  const runs = services.runs;
  // Async runs are always recorded (their poller reads the record); the others when the history is on.
  if (!runs || (!runs.config.enabled && options.runId === undefined)) {
    const inRun = servicesInRun(services, { mask, runId: undefined, nesting });
    return schedule(inRun, script, options, mask);
  }
  // The recorder masks what the history keeps with the run's mask, as the answer is masked.
  return runs.recorder.record(
    script,
    options,
    (run) => schedule(servicesInRun(services, { mask, runId: run.id, nesting }), script, options, mask, run),
    mask,
    options.parentRunId ?? caller?.runId,
  );
}

function schedule(
  services: ServerServices,
  script: PipelineScript,
  options: ExecuteOptions,
  mask: SecretMask,
  run?: ActiveRun,
): Promise<RunResult> {
  // Before any step and before a run slot is taken: a pipeline with a mistake anywhere runs nothing.
  const invalid = errorBeforeRun(script, services.commands, {
    principal: options.principal,
    authorize: authorizeFor(options),
  });
  if (invalid) return Promise.reject(invalid);
  if (options.topLevel) {
    const cancellation = run ? run.cancellation : options.cancellation;
    return services.runSlots.run(options.principal, cancellation, (maxMillis) =>
      runOnServer(services, script, options, maxMillis, mask, run),
    );
  }
  return runOnServer(services, script, options, services.config.limits.pipelineMillis, mask, run);
}

async function runOnServer(
  services: ServerServices,
  script: PipelineScript,
  options: ExecuteOptions,
  maxMillis: number,
  mask: SecretMask,
  run?: ActiveRun,
): Promise<RunResult> {
  try {
    return maskedResult(mask, await runMasked(services, script, options, maxMillis, mask, run));
  } catch (error) {
    throw maskedError(mask, error);
  }
}

/** The result with the run's secret values masked in its body, trace and final message. */
export function maskedResult(mask: SecretMask, result: RunResult): RunResult {
  if (mask.empty) return result;
  const { scope } = result;
  scope.body = mask.value(scope.body);
  for (const [name, value] of Object.entries(scope.vars)) scope.vars[name] = mask.value(value);
  for (const [name, value] of Object.entries(scope.headers)) scope.headers[name] = mask.value(value);
  return {
    ...result,
    body: mask.value(result.body),
    trace: result.trace ? (mask.value(result.trace) as RunResult['trace']) : undefined,
  };
}

/** The error with the run's secret values masked in its message and details (a failed run's trace too). */
export function maskedError(mask: SecretMask, error: unknown): unknown {
  if (mask.empty) return error;
  mask.error(error);
  if (isPipeworkError(error)) {
    for (const [name, value] of Object.entries(error.details)) error.details[name] = mask.value(value);
  }
  return error;
}

/** `run`: the recorded run, whose sampling and cancellation take the place of the options' own. */
function runMasked(
  services: ServerServices,
  script: PipelineScript,
  options: ExecuteOptions,
  maxMillis: number,
  mask: SecretMask,
  run?: ActiveRun,
): Promise<RunResult> {
  const { logger, config } = services;
  const prefetched = new Map<string, unknown>();
  let registry = services.commands;
  // Only over the server's own registry: a test run's registry (`test.run`) is what its commands look for.
  if (run && services.commands.constructor === CommandRegistry) {
    const watching = new LastStepRegistry(services.commands);
    run.steps = watching;
    registry = watching;
  }
  return runPipeline(script, {
    registry,
    services,
    principal: options.principal,
    utilities: utilitiesFor(services, prefetched),
    prepareStep: stepPreparer?.(services, prefetched),
    authorize: authorizeFor(options),
    limits: { maxSteps: config.limits.pipelineSteps, maxMillis },
    trace: run ? run.traced : options.trace,
    request: options.request,
    cancellation: run ? run.cancellation : options.cancellation,
    onLog: (entry) =>
      logger[LOG_METHODS[entry.level]](
        {
          traceId: options.traceId,
          command: entry.commandName,
          step: entry.commandIndex,
          user: options.principal?.username,
        },
        mask.text(entry.message),
      ),
  });
}

/** The per-step permission check of a run: the public token commands need no caller. */
function authorizeFor(options: ExecuteOptions): AuthorizeStep {
  if (options.publicCommand === undefined) return authorizeCommand;
  return (principal, contract) => {
    if (principal === null && contract.name === options.publicCommand) return;
    authorizeCommand(principal, contract);
  };
}
