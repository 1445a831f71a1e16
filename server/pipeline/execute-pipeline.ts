/** Runs a parsed pipeline on the server: the registry, permissions, utilities, limits and logging wired in. */
import type { Principal } from '../../shared/auth';
import type { PipelineScript } from '../../shared/pipeline';
import { runPipeline, type Cancellation, type RunPipelineOptions, type RunResult } from '../../shared/runner';
import type { ServerServices } from '../services';
import { authorizeCommand } from './authorize-command';
import { utilitiesFor } from './pel-utilities';
import { errorBeforeRun } from './validate-before-run';

/** How a run was started: every way a pipeline starts is one of these (issue: one run model). */
export type RunTriggerKind =
  | 'http'
  | 'stored'
  | 'cli'
  | 'workbench'
  | 'pipeline'
  | 'event'
  | 'job'
  | 'webhook'
  | 'async';

export interface RunTrigger {
  kind: RunTriggerKind;
  /** What started it, where there is a name: the job's pipeline key, the webhook's uid, the listener's key. */
  source?: string;
}

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

export function executePipeline(
  services: ServerServices,
  script: PipelineScript,
  options: ExecuteOptions,
): Promise<RunResult> {
  // Before any step and before a run slot is taken: a pipeline with a mistake anywhere runs nothing.
  const invalid = errorBeforeRun(script, services.commands);
  if (invalid) return Promise.reject(invalid);
  if (options.topLevel) {
    return services.runSlots.run(options.principal, options.cancellation, (maxMillis) =>
      runOnServer(services, script, options, maxMillis),
    );
  }
  return runOnServer(services, script, options, services.config.limits.pipelineMillis);
}

function runOnServer(
  services: ServerServices,
  script: PipelineScript,
  options: ExecuteOptions,
  maxMillis: number,
): Promise<RunResult> {
  const { logger, config } = services;
  const prefetched = new Map<string, unknown>();
  return runPipeline(script, {
    registry: services.commands,
    services,
    principal: options.principal,
    utilities: utilitiesFor(services, prefetched),
    prepareStep: stepPreparer?.(services, prefetched),
    authorize:
      options.publicCommand === undefined
        ? authorizeCommand
        : (principal, contract) => {
            if (principal === null && contract.name === options.publicCommand) return;
            authorizeCommand(principal, contract);
          },
    limits: { maxSteps: config.limits.pipelineSteps, maxMillis },
    trace: options.trace,
    request: options.request,
    cancellation: options.cancellation,
    onLog: (entry) =>
      logger[LOG_METHODS[entry.level]](
        {
          traceId: options.traceId,
          command: entry.commandName,
          step: entry.commandIndex,
          user: options.principal?.username,
        },
        entry.message,
      ),
  });
}
