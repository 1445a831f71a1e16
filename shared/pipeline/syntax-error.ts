/** Builds PIPELINE_SYNTAX errors whose message and details both say where the fault is. */
import { isPipeworkError, PipeworkError } from '../errors';
import { textPosition } from '../values/text-position';
import { tooDeepMessage } from './limits';
import type { SourcePosition } from './model';

/**
 * A syntax error "<message> at <line>:<column> (<hint>)." whose details carry the same place, so that
 * people read where the fault is and clients can jump to it.
 */
export function syntaxError(
  message: string,
  at?: SourcePosition,
  options: { hint?: string; details?: Record<string, unknown> } = {},
): PipeworkError {
  const where = at ? ` at ${at.line}:${at.column}` : '';
  const hint = options.hint ? ` (${options.hint})` : '';
  const details = at ? { ...options.details, line: at.line, column: at.column } : { ...options.details };
  return new PipeworkError('PIPELINE_SYNTAX', `${message}${where}${hint}.`, details);
}

/** The 1-based line and column of a character offset, counting '\n' as the line break. */
export const positionAt: (text: string, offset: number) => SourcePosition = textPosition;

/** A short, printable quote of a name or token for messages. */
export function quote(text: string, max = 40): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  return `'${shown.replace(/[\r\n]/g, ' ')}'`;
}

/** Anything but a PipeworkError from a parser is still the input's fault: report it as a syntax error. */
export function unexpected(error: unknown): PipeworkError {
  if (isPipeworkError(error)) return error;
  if (error instanceof RangeError) return syntaxError(tooDeepMessage());
  return syntaxError(
    `The pipeline cannot be read: ${error instanceof Error ? error.message : String(error)}`,
  );
}
