/** Turns the validator's problems into the one error a run answers with before any of its steps runs. */
import { PipeworkError } from '../errors';
import type { PipelineProblem } from './problem';

function place(problem: PipelineProblem): string {
  return problem.line === undefined ? '' : ` (line ${problem.line}, column ${problem.column ?? 1})`;
}

/**
 * One PipeworkError for every error among `problems` (warnings never block), or null when there is none.
 * It has the first error's code, message and place, so a pipeline with one mistake answers as before;
 * `details.problems` lists them all, each with its line and column.
 */
export function problemsError(problems: readonly PipelineProblem[]): PipeworkError | null {
  const errors = problems.filter((p) => p.severity === 'error');
  const first = errors[0];
  if (!first) return null;
  const more = errors.length - 1;
  const message =
    more === 0
      ? first.message
      : `${first.message} (and ${more} more problem${more === 1 ? '' : 's'}: ` +
        `${errors
          .slice(1, 4)
          .map((p) => `${p.message}${place(p)}`)
          .join('; ')}${more > 3 ? '; ...' : ''})`;
  const { code, line, column, commandIndex, commandName, parameter } = first;
  return new PipeworkError(code, message, {
    line,
    column,
    commandIndex,
    commandName,
    parameter,
    problems: errors.map((p) => ({ ...p })),
  });
}
