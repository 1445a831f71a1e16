/** The one error type that crosses layers: a stable code from the catalogue plus where it happened. */
import { type ErrorCode, statusOf } from './error-codes';

/** Where an error happened: in a pipeline's source, in one of its commands, or in an expression. */
export interface ErrorDetails {
  /** 1-based line in the pipeline source (or in the expression when there is no pipeline). */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** 0-based character offset in the expression, for PEL errors. */
  offset?: number;
  commandName?: string;
  /** 0-based index of the command in the pipeline. */
  commandIndex?: number;
  /** The parameter at fault, for PARAM_INVALID. */
  parameter?: string;
  /** Anything else a client may use (kept JSON-serialisable). */
  [extra: string]: unknown;
}

export class PipeworkError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PipeworkError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return statusOf(this.code);
  }

  /** A copy with more location details; the existing ones win, since they were set closer to the fault. */
  withDetails(more: ErrorDetails): PipeworkError {
    const merged: ErrorDetails = { ...more };
    for (const [k, v] of Object.entries(this.details)) if (v !== undefined) merged[k] = v;
    const copy = new PipeworkError(this.code, this.message, merged, { cause: this.cause });
    copy.stack = this.stack;
    return copy;
  }
}

export function isPipeworkError(value: unknown): value is PipeworkError {
  return value instanceof PipeworkError;
}
