/** What a caller gives `runPipeline` and what it gets back. */
import type { Principal } from '../auth';
import type { LogLevel, PipelineScope } from '../commands/command-definition';
import type { CommandContract } from '../commands/contract';
import type { CommandRegistry } from '../commands/registry';
import type { PelUtilities } from '../pel';
import type { PipelineStep } from '../pipeline/model';
import type { TraceStep } from './trace';

export interface RunLimits {
  /** Steps one run may execute (each loop iteration's steps count). */
  maxSteps: number;
  /** Wall time of one run. */
  maxMillis: number;
  /**
   * How long the run's expressions (and the utilities they call) may compute without letting the event
   * loop turn: they share one slice of this length until the loop has had a turn, and an evaluation that
   * would go past it ends with LIMIT_EXCEEDED (TIMEOUT). Never past the run's own deadline.
   */
  sliceMillis: number;
}

export const DEFAULT_RUN_LIMITS: RunLimits = { maxSteps: 100_000, maxMillis: 60_000, sliceMillis: 100 };

export interface RunLogEntry {
  level: LogLevel;
  message: string;
  commandName: string;
  commandIndex: number;
}

/** A caller's way to stop a run: lighter than an AbortSignal, which most runs would never use. */
export interface Cancellation {
  readonly cancelled: boolean;
  onCancel(listener: () => void): void;
}

export interface RunPipelineOptions<S> {
  registry: CommandRegistry<S>;
  services: S;
  principal: Principal | null;
  /** The `@name` utilities for expressions, per principal (the server adds `@user`, `@property`). */
  utilities?: (principal: Principal | null) => PelUtilities;
  /** Throws FORBIDDEN when the principal may not run the command; called before every step. */
  authorize?: (principal: Principal | null, contract: CommandContract) => void;
  limits?: Partial<RunLimits>;
  trace?: boolean;
  /**
   * The `request` root of expressions (e.g. query parameters and headers of the HTTP call). A function is
   * called the first time an expression is evaluated, so runs without expressions pay nothing for it.
   */
  request?: unknown;
  /** Stops the run when the caller goes away (e.g. the HTTP client disconnects). */
  cancellation?: Cancellation;
  onLog?: (entry: RunLogEntry) => void;
  /**
   * Called before a step's parameters are evaluated (after its `if`): the server resolves here what
   * expressions cannot wait for (`@resolve.uri('$uri:pipeline:...')`).
   */
  prepareStep?: (
    step: PipelineStep,
    params: Record<string, unknown>,
    run: PreparingRun,
  ) => Promise<void> | undefined;
}

/** What `prepareStep` may know of the run. */
export interface PreparingRun {
  principal: Principal | null;
  body: unknown;
  signal: AbortSignal;
}

export interface RunResult {
  body: unknown;
  scope: PipelineScope;
  stepsExecuted: number;
  durationMs: number;
  trace?: TraceStep[];
}
