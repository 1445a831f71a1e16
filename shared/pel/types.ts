/** The types the callers of PEL see: scopes, utilities and options. */
import type { PelLimits } from './limits';

/** The roots an expression reads and writes (the same shape as the pipeline's `PipelineScope`). */
export interface PelScope {
  body: unknown;
  vars: Record<string, unknown>;
  headers: Record<string, unknown>;
  request?: unknown;
  exception?: unknown;
}

/** One utility: `@name.fn(args)` calls `utility.fn(...args)`. */
export type PelUtility = Record<string, (...args: unknown[]) => unknown>;

/** Utilities by name, without the `@`. */
export type PelUtilities = Record<string, PelUtility>;

export interface PelOptions {
  /** Looked up before the default utilities, so a caller adds `@user`, `@property` or replaces one. */
  utilities?: PelUtilities;
  limits?: Partial<PelLimits>;
  /**
   * When the caller's time for an evaluation ends (performance.now() based), read once when the evaluation
   * first reads its clock; the evaluation ends at this or at `maxEvaluationMs`, whichever comes first. The
   * pipeline runner passes the end of its current slice of event-loop time, never past the run's deadline.
   */
  deadline?: () => number;
}

/** The names an expression may start from. */
export const ROOT_NAMES = ['body', 'vars', 'headers', 'request', 'exception'] as const;
export type RootName = (typeof ROOT_NAMES)[number];

export function isRootName(name: string): name is RootName {
  return (ROOT_NAMES as readonly string[]).includes(name);
}
