/** Test helpers for the pipeline parsers: catch an error as plain data, write YAML as lines. */
import { isPipeworkError } from '../errors';

export interface CaughtError {
  code: string;
  message: string;
  line?: number;
  column?: number;
}

/** Runs `fn` and returns the PipeworkError it throws as data; fails when it throws nothing or anything else. */
export function caught(fn: () => unknown): CaughtError {
  try {
    fn();
  } catch (error) {
    if (!isPipeworkError(error))
      throw new Error(`Expected a PipeworkError, got ${String(error)}`, { cause: error });
    const { line, column } = error.details;
    return {
      code: error.code,
      message: error.message,
      ...(typeof line === 'number' ? { line } : {}),
      ...(typeof column === 'number' ? { column } : {}),
    };
  }
  throw new Error('Expected an error, but none was thrown');
}

/** YAML source from lines, so tests can count lines and columns at a glance. */
export function lines(...source: string[]): string {
  return `${source.join('\n')}\n`;
}
