/** `@function`: the real product's serverless functions, which this service does not host: a clear error. */
import { utilityError } from '../errors';
import type { UtilitySpec } from './support';

export const functionUtility: UtilitySpec = {
  name: 'function',
  doc: 'Serverless functions of the real product: not hosted here.',
  functions: {
    run: {
      signature: 'run(name, args)',
      doc: 'Always fails: serverless functions are not hosted here (call a pipeline or a command instead).',
      fn: (...a) => {
        const name = typeof a[0] === 'string' ? `'${a[0]}'` : 'a function';
        throw utilityError(
          `run: cannot run ${name}: serverless functions are not hosted here; call a pipeline or a command instead`,
        );
      },
    },
  },
};
