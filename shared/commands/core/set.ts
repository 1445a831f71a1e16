/** `set`, `set.body` and `set.var`: put a value into the body, a target, or a variable. */
import { PipeworkError } from '../../errors';
import { defineCommand, type CommandContext } from '../command-definition';
import { convertFormat, FORMAT_PARAMETER } from './value-format';
import { applyMapping } from './mapping';

export const set = defineCommand(
  {
    name: 'set',
    summary: 'Sets a value (or the input, optionally reshaped by mapping rules) as the output.',
    parameters: {
      value: { description: 'The value to set: a constant or an expression. Default: the input.' },
      mapping: {
        type: 'string',
        description:
          "Comma-separated rules 'field: expression' applied to a copy of the input map, e.g. 'name: @user.displayName()'.",
      },
    },
    defaultParameter: 'value',
    rawParameters: ['mapping'],
    input: 'any',
    output: 'any',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Keep a result in a variable',
        pipeline: 'pipeline:\n  - set:\n      value: "#{body.items.size()}"\n      output: "#{vars.count}"\n',
      },
    ],
  },
  (ctx) => {
    const base = ctx.params.value === undefined ? ctx.input : ctx.params.value;
    const mapping = ctx.params.mapping;
    return typeof mapping === 'string' && mapping.trim() !== '' ? applyMapping(base, mapping, ctx) : base;
  },
);

export const setBody = defineCommand(
  {
    name: 'set.body',
    aliases: ['body.set'],
    summary: 'Sets the body to a value.',
    parameters: {
      value: { description: 'The new body: a constant or an expression.' },
      format: FORMAT_PARAMETER,
    },
    required: ['value'],
    defaultParameter: 'value',
    input: 'any',
    output: 'any',
    effect: 'read',
    audience: 'user',
  },
  ({ params }) => convertFormat(params.value, params.format),
);

function variableName(ctx: CommandContext): string {
  const name = ctx.params.key ?? ctx.params.name;
  if (typeof name !== 'string' || name === '') {
    throw new PipeworkError(
      'PARAM_INVALID',
      "Command 'set.var' needs the parameter 'key' (the variable's name).",
      {
        parameter: 'key',
      },
    );
  }
  return name;
}

export const setVar = defineCommand(
  {
    name: 'set.var',
    aliases: ['var.set'],
    summary: 'Sets a variable in the vars scope; the body stays as it is.',
    parameters: {
      key: { type: 'string', minLength: 1, description: 'The name of the variable.' },
      name: { type: 'string', minLength: 1, description: "Older name of 'key'." },
      value: { description: 'The value: a constant or an expression.' },
      format: FORMAT_PARAMETER,
    },
    required: ['value'],
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
  },
  (ctx) => {
    ctx.scope.vars[variableName(ctx)] = convertFormat(ctx.params.value, ctx.params.format);
    return undefined;
  },
);
