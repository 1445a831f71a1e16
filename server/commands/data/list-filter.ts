/** `data.list.filter`: keeps the items of a list for which a PEL condition holds. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { selectEach, unwrap } from './evaluate-in-context';

export function inputList(input: unknown, command: string): unknown[] {
  if (Array.isArray(input)) return input;
  throw new PipeworkError('PARAM_INVALID', `${command} needs a list as input.`, { parameter: 'input' });
}

export const dataListFilter = defineCommand(
  {
    name: 'data.list.filter',
    summary: 'Keeps the items of the input list for which the condition holds.',
    description:
      'The condition is PEL evaluated on each item: its fields are names (`price > 10 and name.startsWith(\'b\')`), `#this` is the item; body, vars and headers stay reachable.',
    parameters: {
      filter: { type: 'string', minLength: 1, description: 'The condition, e.g. `status == \'open\'`.' },
    },
    required: ['filter'],
    defaultParameter: 'filter',
    rawParameters: ['filter'],
    input: 'json',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Open orders',
        pipeline:
          "body: [{id: 1, status: open}, {id: 2, status: done}]\npipeline:\n  - data.list.filter: \"status == 'open'\"\n",
      },
    ],
  },
  (ctx) => selectEach(ctx, inputList(ctx.input, 'data.list.filter'), unwrap(String(ctx.params.filter)), 'filter'),
);
