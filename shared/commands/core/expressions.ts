/** `eval`, `test` and `assert`: run expressions for their effect or check them. */
import { PipeworkError } from '../../errors';
import { defineCommand, type CommandContext } from '../command-definition';
import type { JsonSchema } from '../json-schema';
import { logText } from './log';

const CONDITION: JsonSchema = {
  type: ['string', 'boolean'],
  description: 'An expression (with or without #{}) that must be true.',
};

export const evalCommand = defineCommand(
  {
    name: 'eval',
    summary:
      'Evaluates an expression for its effect (e.g. an assignment); the body stays unless `output` is set.',
    parameters: { expr: { type: 'string', description: 'The expression, with or without #{}.' } },
    required: ['expr'],
    defaultParameter: 'expr',
    rawParameters: ['expr'],
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'Count in a variable',
        pipeline: 'vars:\n  n: 0\npipeline:\n  - eval: "#{vars.n = vars.n + 1}"\n',
      },
    ],
  },
  (ctx) => ctx.evaluate(String(ctx.params.expr)),
);

function isTrue(ctx: CommandContext, expression: unknown): boolean {
  const result = typeof expression === 'string' ? ctx.evaluate(expression) : expression;
  return result === true || result === 'true';
}

function fail(ctx: CommandContext, fallback: string): never {
  const message = ctx.params.message === undefined ? fallback : logText(ctx.params.message);
  throw new PipeworkError('ASSERTION_FAILED', message);
}

export const test = defineCommand(
  {
    name: 'test',
    summary: 'Fails the pipeline with ASSERTION_FAILED unless the expression is true; the body stays.',
    parameters: { true: CONDITION, message: { description: 'The error message when it fails.' } },
    required: ['true'],
    defaultParameter: 'true',
    rawParameters: ['true'],
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
    examples: [
      { title: 'Check the body', pipeline: 'body: {"n": 2}\npipeline:\n  - test: "#{body.n == 2}"\n' },
    ],
  },
  (ctx) => {
    if (!isTrue(ctx, ctx.params.true)) fail(ctx, `Test failed: ${String(ctx.params.true)}`);
    return undefined;
  },
);

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    // Text from a template compares equal to the number or boolean it spells ('2' and 2).
    return (
      (typeof a === 'string' || typeof b === 'string') && a !== null && b !== null && String(a) === String(b)
    );
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export const assert = defineCommand(
  {
    name: 'assert',
    summary:
      'Checks conditions (true, false, equals) and fails with ASSERTION_FAILED when one does not hold.',
    parameters: {
      true: CONDITION,
      false: { type: ['string', 'boolean'], description: 'An expression that must be false.' },
      equals: { description: 'Must equal `value` (or the body when no value is given).' },
      value: { description: 'The value compared with `equals`. Default: the body.' },
      'body.equals': { description: 'Must equal the body.' },
      message: { description: 'The error message when a check fails.' },
    },
    defaultParameter: 'true',
    rawParameters: ['true', 'false'],
    input: 'any',
    output: 'none',
    effect: 'read',
    audience: 'user',
  },
  (ctx) => {
    const { params } = ctx;
    if (params.true !== undefined && !isTrue(ctx, params.true))
      fail(ctx, `Expected true: ${String(params.true)}`);
    if (params.false !== undefined) {
      const result = typeof params.false === 'string' ? ctx.evaluate(params.false) : params.false;
      if (result !== false && result !== 'false') fail(ctx, `Expected false: ${String(params.false)}`);
    }
    if ('equals' in params) {
      const actual = 'value' in params ? params.value : ctx.input;
      if (!deepEqual(actual, params.equals))
        fail(ctx, `Expected ${logText(params.equals)} but was ${logText(actual)}`);
    }
    if ('body.equals' in params && !deepEqual(ctx.scope.body, params['body.equals'])) {
      fail(ctx, `Expected the body ${logText(params['body.equals'])} but was ${logText(ctx.scope.body)}`);
    }
    return undefined;
  },
);
