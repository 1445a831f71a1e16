/** `@script`: scripts inside expressions. Groovy (the real product's) is not supported: a clear error says so. */
import { utilityError } from '../errors';
import type { UtilitySpec } from './support';

export const scriptUtility: UtilitySpec = {
  name: 'script',
  doc: 'Scripts inside expressions: not supported (write the logic in PEL, or use a script command step).',
  functions: {
    groovy: {
      signature: 'groovy(script, args)',
      overloads: ['groovy(script)'],
      doc: 'Always fails: Groovy is not supported here. Write the logic in PEL, or use a script command step.',
      fn: () => {
        throw utilityError(
          'groovy: Groovy scripts are not supported; write the logic in PEL or use a script command step',
        );
      },
    },
  },
};
