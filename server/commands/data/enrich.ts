/** `data.enrich`: adds to a data object by PEL actions on it (`input.city = 'Los Angeles'`). */
import { defineCommand } from '../../../shared/commands';
import { actionsExpression, runActions } from './do-actions';

export const dataEnrich = defineCommand(
  {
    name: 'data.enrich',
    summary: 'Enriches the input by PEL actions on it, named `input` (`input.city = \'Los Angeles\'`); gives the input.',
    description:
      'Several actions are separated by `;`; body, vars and headers stay reachable. The result is a changed copy of the input, so a value written in the pipeline stays as written.',
    parameters: {
      do: {
        type: 'string',
        minLength: 1,
        description: 'PEL actions on `input`, separated by `;`.',
      },
    },
    required: ['do'],
    defaultParameter: 'do',
    rawParameters: ['do'],
    input: 'json',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Add the city',
        pipeline:
          'pipeline:\n  - data.enrich:\n      input: { "street": "Lincoln Blvd", "zipCode": "90001" }\n      do: "input.city = \'Los Angeles\'"\n',
      },
    ],
  },
  (ctx) => {
    const input = structuredClone(ctx.input);
    runActions(ctx, [{ input }], ['input'], actionsExpression(String(ctx.params.do), ['input'], 'do'), 'do');
    return input;
  },
);
