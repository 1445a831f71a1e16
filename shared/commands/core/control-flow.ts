/**
 * `if` / `if.else` / `if.end`, `foreach` / `foreach.end` and `exit`: the runner steers by these (their
 * contracts carry `controlFlow`); they never run as ordinary commands.
 */
import { defineCommand } from '../command-definition';

const steeredByRunner = () => undefined;

export const ifCommand = defineCommand(
  {
    name: 'if',
    summary:
      'Runs the steps up to `if.else` or `if.end` when the condition holds, those after `if.else` otherwise.',
    parameters: {
      true: {
        type: ['string', 'boolean'],
        description: 'The condition (an expression, with or without #{}).',
      },
    },
    required: ['true'],
    defaultParameter: 'true',
    rawParameters: ['true'],
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    controlFlow: 'if',
    permission: 'CAN_PIPE_if',
    examples: [
      {
        title: 'Branch on the body',
        pipeline:
          'body: {"n": 5}\npipeline:\n  - if: "#{body.n > 3}"\n  - set.body: big\n  - if.else\n  - set.body: small\n  - if.end\n',
      },
    ],
  },
  steeredByRunner,
);

export const ifElse = defineCommand(
  {
    name: 'if.else',
    summary: 'Starts the branch of an `if` that runs when its condition is false.',
    parameters: {},
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    controlFlow: 'if.else',
    permission: 'CAN_PIPE_if',
  },
  steeredByRunner,
);

export const ifEnd = defineCommand(
  {
    name: 'if.end',
    summary: 'Ends an `if` block.',
    parameters: {},
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    controlFlow: 'if.end',
    permission: 'CAN_PIPE_if',
  },
  steeredByRunner,
);

export const foreach = defineCommand(
  {
    name: 'foreach',
    summary: 'Runs the steps up to `foreach.end` once per element of a list (or entry of a map).',
    description:
      'Each element is in `vars.<as>` (default `vars.item`) and in `vars.loop` with `index`, `item`, `size` (and `key` for maps, whose elements are `{key, value}`).',
    parameters: {
      in: { description: 'The list or map (usually an expression such as #{body.items}).' },
      as: {
        type: 'string',
        pattern: '^[A-Za-z_$][\\w$]*$',
        default: 'item',
        description: 'The variable name of the element.',
      },
    },
    required: ['in'],
    defaultParameter: 'in',
    rawParameters: ['in'],
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    controlFlow: 'foreach',
    examples: [
      {
        title: 'Sum a list',
        pipeline:
          'vars:\n  sum: 0\nbody: [1, 2, 3]\npipeline:\n  - foreach: "#{body}"\n  - eval: "#{vars.sum = vars.sum + vars.item}"\n  - foreach.end\n  - set.body: "#{vars.sum}"\n',
      },
    ],
  },
  steeredByRunner,
);

export const foreachEnd = defineCommand(
  {
    name: 'foreach.end',
    summary: 'Ends a `foreach` block.',
    parameters: {},
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    controlFlow: 'foreach.end',
    permission: 'CAN_PIPE_foreach',
  },
  steeredByRunner,
);

export const exit = defineCommand(
  {
    name: 'exit',
    summary: 'Stops the pipeline; the current body is its result.',
    parameters: {},
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    controlFlow: 'exit',
  },
  steeredByRunner,
);

export const finallyCommand = defineCommand(
  {
    name: 'finally',
    effect: 'read',
    audience: 'admin',
    summary:
      'The steps after it run at the very end of the pipeline in any case: after the last step, an `exit` or an error.',
    description:
      'It stands once, at the top level (not inside an `if` or `foreach` block). After an error, `exception` holds ' +
      'its code and message and the error is still the result of the run once these steps are done.',
    parameters: {
      do: { type: 'string', description: 'An optional expression evaluated first.' },
    },
    defaultParameter: 'do',
    rawParameters: ['do'],
    input: 'any',
    output: 'none',
    controlFlow: 'finally',
    examples: [
      {
        title: 'Log whatever happens',
        pipeline:
          'pipeline:\n  - set.body: done\n  - error: "failed"\n  - finally\n  - log: "Finished with #{body}, error: #{exception?.message}"\n',
      },
    ],
  },
  steeredByRunner,
);
