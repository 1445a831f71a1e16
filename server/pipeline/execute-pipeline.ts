/** Runs a parsed pipeline on the server: the registry, permissions, utilities, limits and logging wired in. */
import type { Principal } from '../../shared/auth';
import type { PipelineScript } from '../../shared/pipeline';
import { runPipeline, type Cancellation, type RunResult } from '../../shared/runner';
import type { ServerServices } from '../services';
import { authorizeCommand } from './authorize-command';
import { utilitiesFor } from './pel-utilities';

export interface ExecuteOptions {
  principal: Principal | null;
  trace?: boolean;
  /** The `request` root: query parameters and (lower-cased) headers of the HTTP call, when there is one. */
  request?: unknown;
  cancellation?: Cancellation;
  traceId?: string;
  /** The one command a caller without credentials may run (the public token commands). */
  publicCommand?: string;
}

const LOG_METHODS = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

export function executePipeline(
  services: ServerServices,
  script: PipelineScript,
  options: ExecuteOptions,
): Promise<RunResult> {
  const { logger, config } = services;
  return runPipeline(script, {
    registry: services.commands,
    services,
    principal: options.principal,
    utilities: utilitiesFor(services),
    authorize:
      options.publicCommand === undefined
        ? authorizeCommand
        : (principal, contract) => {
            if (principal === null && contract.name === options.publicCommand) return;
            authorizeCommand(principal, contract);
          },
    limits: { maxSteps: config.limits.pipelineSteps, maxMillis: config.limits.pipelineMillis },
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
