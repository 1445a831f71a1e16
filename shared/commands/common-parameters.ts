/** Parameters every command accepts; the runner handles them, so contracts need not list them. */
import type { JsonSchema } from './json-schema';

export const COMMON_PARAMETERS: Record<string, JsonSchema> = {
  if: {
    type: ['boolean', 'string'],
    description: 'Runs the command only when this evaluates to true; skipped otherwise.',
  },
  input: {
    description: 'A PEL source for the input of this command. Default: the body.',
  },
  output: {
    type: 'string',
    description:
      'A PEL target where the result of this command is written, e.g. #{vars.result}. Default: the body.',
  },
  eval: {
    type: 'string',
    description:
      'An expression evaluated after the command has run (its result written), e.g. #{@list.add(body, vars.x)}.',
  },
  onError: {
    type: ['string', 'object'],
    description:
      'What happens when this command fails: THROW (default), IGNORE, LOG, or RETRY (times=N; wait=S; then=...), ' +
      'or the JSON form {"action": "RETRY", "times": 3, "wait": 2, "then": "LOG"}.',
  },
  id: { type: 'string', description: 'An optional id of this step, shown in traces.' },
  description: { type: 'string', description: 'An optional description of this step.' },
};

export const COMMON_PARAMETER_NAMES: ReadonlySet<string> = new Set(Object.keys(COMMON_PARAMETERS));
