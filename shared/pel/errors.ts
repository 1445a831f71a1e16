/** The PEL error catalogue: every failure has a stable reason, a catalogue code and a position in the source. */
import { type ErrorCode, PipeworkError, isPipeworkError } from '../errors';
import { textPosition } from '../values/text-position';

/** Each reason maps to one catalogue code and a message template (`{0}`, `{1}` are filled in). */
export const PEL_REASONS = {
  // syntax (PEL_SYNTAX)
  UNEXPECTED_CHARACTER: ['PEL_SYNTAX', "unexpected character '{0}'"],
  UNTERMINATED_STRING: ['PEL_SYNTAX', 'unterminated string literal'],
  UNTERMINATED_TEMPLATE: ['PEL_SYNTAX', "'#{' is never closed by '}'"],
  EMPTY_EXPRESSION: ['PEL_SYNTAX', 'empty expression'],
  UNEXPECTED_TOKEN: ['PEL_SYNTAX', 'unexpected {0}, expected {1}'],
  BAD_NUMBER: ['PEL_SYNTAX', "malformed number '{0}'"],
  UNSUPPORTED: ['PEL_SYNTAX', '{0} is not supported'],
  NOT_ASSIGNABLE: ['PEL_SYNTAX', 'the left side of = cannot be assigned'],
  BAD_UTILITY_USE: ['PEL_SYNTAX', 'a utility is called as @{0}.function(...)'],
  FORBIDDEN_NAME: ['PEL_SYNTAX', "'{0}' is never accessible"],
  // evaluation (PEL_EVAL)
  NULL_RECEIVER: ['PEL_EVAL', "cannot read '{0}' of null"],
  NO_PROPERTY: ['PEL_EVAL', "a {1} has no property '{0}'"],
  NO_METHOD: ['PEL_EVAL', "a {1} has no method '{0}'"],
  BAD_ARGUMENTS: ['PEL_EVAL', '{0}'],
  TYPE_MISMATCH: ['PEL_EVAL', '{0}'],
  NOT_BOOLEAN: ['PEL_EVAL', 'expected a boolean, got a {0}'],
  DIVISION_BY_ZERO: ['PEL_EVAL', 'division by zero'],
  NOT_FINITE: ['PEL_EVAL', 'the result is not a finite number'],
  INDEX_OUT_OF_BOUNDS: ['PEL_EVAL', 'index {0} is out of bounds for size {1}'],
  UNKNOWN_NAME: ['PEL_EVAL', "unknown name '{0}' (the roots are body, vars, headers, request, exception)"],
  UNKNOWN_UTILITY: ['PEL_EVAL', "unknown utility '@{0}'"],
  UNKNOWN_FUNCTION: ['PEL_EVAL', "the utility '@{1}' has no function '{0}'"],
  UTILITY_FAILED: ['PEL_EVAL', '{0}'],
  HOST_ERROR: ['PEL_EVAL', '{0}'],
  BAD_REGEX: ['PEL_EVAL', 'invalid regular expression: {0}'],
  FORBIDDEN_KEY: ['PEL_EVAL', "the key '{0}' cannot be written"],
  NOT_WRITABLE: ['PEL_EVAL', '{0}'],
  DATA_TOO_DEEP: ['PEL_EVAL', 'the data is nested more than {0} levels deep, or contains itself'],
  // guardrails (LIMIT_EXCEEDED)
  EXPRESSION_TOO_LONG: ['LIMIT_EXCEEDED', 'the expression has {0} characters, more than the limit of {1}'],
  TOO_DEEP: ['LIMIT_EXCEEDED', 'the expression is nested more than {0} levels deep'],
  STRING_TOO_LONG: ['LIMIT_EXCEEDED', 'a string of {0} characters is longer than the limit of {1}'],
  LIST_TOO_LARGE: ['LIMIT_EXCEEDED', 'a list of {0} items is larger than the limit of {1}'],
  UTILITY_TOO_COSTLY: [
    'LIMIT_EXCEEDED',
    'the query needs more than {0} steps over this data (nested filters grow with the data times itself)',
  ],
  REGEX_TOO_LONG: ['LIMIT_EXCEEDED', 'the regular expression is longer than {0} characters'],
  REGEX_TOO_COSTLY: [
    'LIMIT_EXCEEDED',
    'the regular expression over this text could cost {0} steps, more than the limit of {1} (text length times pattern size)',
  ],
  TIMEOUT: ['LIMIT_EXCEEDED', 'the expression ran longer than {0} ms'],
  TOO_MUCH_DATA: ['LIMIT_EXCEEDED', 'the expression built more than {0} characters and items in all'],
} as const satisfies Record<string, readonly [ErrorCode, string]>;

export type PelReason = keyof typeof PEL_REASONS;

/** A place in a source text; `source` is the whole text the offsets refer to (a template or an expression). */
export interface Site {
  readonly source: string;
  readonly start: number;
  readonly end: number;
}

/** Turns a 0-based offset into a 1-based line and column. */
export const lineColumnOf = textPosition;

function fill(template: string, args: readonly unknown[]): string {
  return template.replace(/\{(\d)\}/g, (_, i: string) => String(args[Number(i)]));
}

/** Builds the PipeworkError for a reason at a site: code from the catalogue, `line:column: message`. */
export function pelError(reason: PelReason, site: Site | null, ...args: unknown[]): PipeworkError {
  const [code, template] = PEL_REASONS[reason];
  const message = fill(template, args);
  if (!site) return new PipeworkError(code, message, { reason });
  const { line, column } = lineColumnOf(site.source, site.start);
  return new PipeworkError(code, `${line}:${column}: ${message}`, {
    reason,
    offset: site.start,
    length: Math.max(0, site.end - site.start),
    line,
    column,
  });
}

/** Utilities throw this (without a position); the call site adds where it was called. */
export function utilityError(message: string): PipeworkError {
  return new PipeworkError('PEL_EVAL', message, { reason: 'UTILITY_FAILED' });
}

/**
 * Whatever was thrown while evaluating becomes a PipeworkError with a position: ours keep their code and
 * gain the site when they have none; host errors (a stack overflow, a frozen object, a throwing getter)
 * become PEL_EVAL, so evaluation never crashes the caller with a raw exception.
 */
export function toPelError(error: unknown, site: Site, context?: string): PipeworkError {
  if (isPipeworkError(error)) {
    if (error.details.offset !== undefined) return error;
    const { line, column } = lineColumnOf(site.source, site.start);
    const text = context ? `${context}: ${error.message}` : error.message;
    const prefixed = new PipeworkError(error.code, `${line}:${column}: ${text}`, error.details, {
      cause: error.cause,
    });
    return prefixed.withDetails({ offset: site.start, length: site.end - site.start, line, column });
  }
  const text =
    error instanceof RangeError && /call stack/i.test(error.message)
      ? 'the evaluation ran out of stack'
      : errorText(error);
  return context
    ? pelError('UTILITY_FAILED', site, `${context}: ${text}`)
    : pelError('HOST_ERROR', site, text);
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'evaluation failed';
}
