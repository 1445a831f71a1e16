/**
 * `macro` and `macro.run` (guides/commands_pipelines/33_macros.md): a macro is an expression (`do`) with
 * default arguments (`args`), whose names are bare names inside it; `vars`, `headers` and `body` stay
 * reachable. Without a `name` it runs where it stands; with one it is kept for `macro.run` (and also runs where
 * it stands when `flow` is true). Macros live as long as the run (one table per pipeline scope).
 */
import { defineCommand, type CommandContext, type PipelineScope } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { evaluateIn, unwrap } from '../data/evaluate-in-context';
import { mapParam } from './pipeline-start';

interface Macro {
  args: Record<string, unknown>;
  body: string;
}

/** At most this many named macros per run. */
const MAX_MACROS = 100;

const macrosOfRun = new WeakMap<PipelineScope, Map<string, Macro>>();

function run(ctx: CommandContext<ServerServices>, macro: Macro, args: Record<string, unknown>): unknown {
  return evaluateIn(ctx, { ...macro.args, ...args }, unwrap(macro.body).trim(), 'do');
}

export const macro = defineCommand<ServerServices>(
  {
    name: 'macro',
    effect: 'read',
    audience: 'admin',
    summary: 'Declares a macro: an expression with default arguments, run here or later by macro.run.',
    parameters: {
      name: {
        type: 'string',
        pattern: '^[A-Za-z_$][\\w$.-]*$',
        description:
          'The name macro.run calls it by; a named macro does not run where it stands (unless flow).',
      },
      args: { type: ['object', 'string'], description: 'Default arguments, as name → value.' },
      flow: { type: 'boolean', default: false, description: 'A named macro also runs where it stands.' },
      do: {
        type: 'string',
        minLength: 1,
        description: 'The expression (#{} optional); arguments are bare names.',
      },
    },
    required: ['do'],
    rawParameters: ['do'],
    input: 'any',
    output: 'any',
    examples: [
      {
        title: 'Declare and call a macro',
        pipeline:
          'pipeline:\n  - macro:\n      name: concatNames\n      args: {firstName: Some, lastName: Name}\n      do: "firstName + \' \' + lastName"\n  - macro.run:\n      name: concatNames\n      args: {firstName: HELLO}\n',
      },
    ],
  },
  (ctx) => {
    const declared: Macro = { args: mapParam(ctx.params.args, 'args'), body: String(ctx.params.do) };
    const name = typeof ctx.params.name === 'string' ? ctx.params.name : '';
    if (name === '') return run(ctx, declared, {});
    let table = macrosOfRun.get(ctx.scope);
    if (!table) macrosOfRun.set(ctx.scope, (table = new Map()));
    if (table.has(name))
      throw new PipeworkError(
        'PARAM_INVALID',
        `A macro named '${name}' is declared twice in this pipeline.`,
        {
          parameter: 'name',
        },
      );
    if (table.size >= MAX_MACROS)
      throw new PipeworkError('LIMIT_EXCEEDED', `A pipeline may declare at most ${MAX_MACROS} macros.`, {
        parameter: 'name',
      });
    table.set(name, declared);
    return ctx.params.flow === true ? run(ctx, declared, {}) : undefined;
  },
);

export const macroRun = defineCommand<ServerServices>(
  {
    name: 'macro.run',
    effect: 'write',
    audience: 'admin',
    summary: 'Runs a macro declared before in this pipeline, with its default arguments overridden by args.',
    parameters: {
      name: { type: 'string', minLength: 1, description: 'The name of the macro.' },
      args: { type: ['object', 'string'], description: 'Arguments over the defaults, as name → value.' },
    },
    required: ['name'],
    defaultParameter: 'name',
    input: 'any',
    output: 'any',
  },
  (ctx) => {
    const name = String(ctx.params.name);
    const declared = macrosOfRun.get(ctx.scope)?.get(name);
    if (!declared)
      throw new PipeworkError(
        'PARAM_INVALID',
        `No macro named '${name}' is declared before this step (declare it with macro and name).`,
        { parameter: 'name' },
      );
    return run(ctx, declared, mapParam(ctx.params.args, 'args'));
  },
);
