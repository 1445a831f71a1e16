/**
 * `switch`: each parameter's name is a condition and its value the result; the value of the first
 * condition that holds goes to the body (or `output`). When none holds, the body stays as it is.
 */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';

function holds(result: unknown, condition: string): boolean {
  if (typeof result === 'boolean') return result;
  if (result === 'true' || result === 'false') return result === 'true';
  if (result === null || result === undefined) return false;
  throw new PipeworkError('PEL_EVAL', `The switch condition '${condition}' must be true or false.`, {
    parameter: condition,
  });
}

export const switchCommand = defineCommand(
  {
    name: 'switch',
    summary: 'Gives the value of the first parameter whose name, a condition, holds.',
    description:
      'Each parameter is `condition: value` (the condition with or without #{}), checked in order; the first that holds gives its value (evaluated) to the body or `output`. When none holds, the body is unchanged (and `output` gets null).',
    parameters: {},
    openParameters: true,
    input: 'any',
    output: 'any',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Pick a label',
        pipeline:
          'body: {total: 120}\npipeline:\n  - switch:\n      "#{body.total > 100}": large\n      "#{body.total > 10}": medium\n      "true": small\n',
      },
    ],
  },
  (ctx) => {
    for (const [condition, value] of Object.entries(ctx.params)) {
      let result: unknown;
      try {
        result = ctx.evaluate(condition);
      } catch (error) {
        if (error instanceof PipeworkError) throw error.withDetails({ parameter: condition });
        throw error;
      }
      if (holds(result, condition)) return value;
    }
    return undefined;
  },
);
