/** Evaluates the `#{...}` templates in parameter values (deeply), and reads conditions and PEL targets. */
import { PipeworkError, isPipeworkError } from '../errors';
import { compileExpression, compileTemplate, containsExpression, type PelOptions } from '../pel';
import { locateInParameter } from '../pipeline';
import type { PipelineStep } from '../pipeline/model';
import type { PipelineScope } from '../commands/command-definition';

/** Evaluates every template inside a value: strings directly, lists and maps element by element. */
export function evaluateDeep(value: unknown, scope: PipelineScope, options: PelOptions): unknown {
  if (typeof value === 'string') {
    return containsExpression(value) ? compileTemplate(value).evaluate(scope, options) : value;
  }
  if (Array.isArray(value)) return value.map((v) => evaluateDeep(v, scope, options));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = evaluateDeep(v, scope, options);
    return out;
  }
  return value;
}

/**
 * Evaluates a value that is an expression even without `#{}` (a condition such as `if: body.x > 1`,
 * `test`, `eval`): booleans and numbers pass through, strings with `#{` are templates, other strings
 * are bare expressions.
 */
export function evaluateExpressionValue(value: unknown, scope: PipelineScope, options: PelOptions): unknown {
  if (typeof value !== 'string') return value;
  if (containsExpression(value)) return compileTemplate(value).evaluate(scope, options);
  return compileExpression(value).evaluate(scope, options);
}

/** Reads a condition's result as a boolean; anything that is not clearly true or false is an error. */
export function toCondition(result: unknown, what: string): boolean {
  if (typeof result === 'boolean') return result;
  if (result === null || result === undefined) return false;
  if (result === 'true' || result === 'false') return result === 'true';
  if (typeof result === 'number') return result !== 0;
  throw new PipeworkError('PEL_EVAL', `${what} must evaluate to true or false, not ${describe(result)}.`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `the ${typeof value} '${String(value).slice(0, 40)}'`;
}

/** Writes a result to a PEL target such as `#{vars.result}` (with or without `#{}`). */
export function assignToTarget(
  target: string,
  value: unknown,
  scope: PipelineScope,
  options: PelOptions,
): void {
  if (containsExpression(target)) compileTemplate(target).assign(scope, value, options);
  else compileExpression(target).assign(scope, value, options);
}

/**
 * Adds the step and the source position to an error raised while evaluating one of its parameters:
 * a PEL error's offset inside the value becomes a line and column in the pipeline source.
 */
export function locateParameterError(
  error: unknown,
  step: PipelineStep,
  parameter: string | undefined,
  positionKey: string | undefined = parameter,
): unknown {
  if (!isPipeworkError(error)) return error;
  const details: Record<string, unknown> = { commandName: step.command, commandIndex: step.index };
  if (parameter !== undefined) {
    details.parameter = parameter;
    const key = positionKey ?? parameter;
    const offset = typeof error.details.offset === 'number' ? error.details.offset : 0;
    const place = locateInParameter(step, key, offset) ?? step.paramPositions?.[key] ?? step.position;
    if (place) Object.assign(details, { line: place.line, column: place.column });
  } else if (step.position) {
    Object.assign(details, { line: step.position.line, column: step.position.column });
  }
  // The expression-relative line/column of a PEL error would be wrong in the pipeline: replace them.
  const own = { ...error.details };
  if (details.line !== undefined) {
    delete own.line;
    delete own.column;
  }
  return new PipeworkError(error.code, error.message, { ...own, ...details }, { cause: error.cause });
}
