/** `pipeline.start` (and its deprecated form `pipeline.run` with `name`): runs a stored pipeline. */
import { defineCommand, type CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { asyncStartedBody } from '../../http/async-answer';
import { runStoredPipeline, startStoredPipelineAsync } from './run-stored-pipeline';

/** A map of vars: given as a map, or its JSON text (as a query string carries it). */
export function mapParam(value: unknown, parameter: string): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  let map: unknown = value;
  if (typeof value === 'string') {
    try {
      map = JSON.parse(value);
    } catch {
      map = undefined;
    }
  }
  if (map === null || typeof map !== 'object' || Array.isArray(map)) {
    throw new PipeworkError('PARAM_INVALID', `Parameter '${parameter}' must be a map of name → value.`, {
      parameter,
    });
  }
  return map as Record<string, unknown>;
}

type ReferenceParameter = 'path' | 'key' | 'name';

async function start(ctx: CommandContext<ServerServices>, parameter: ReferenceParameter): Promise<unknown> {
  const reference = String(ctx.params[parameter]);
  const vars = mapParam(ctx.params.vars, 'vars');
  if (ctx.params.async !== true) return runStoredPipeline(ctx, reference, vars, parameter);
  return asyncStartedBody((await startStoredPipelineAsync(ctx, reference, vars, parameter)).runId);
}

const asyncParameter = {
  type: 'boolean' as const,
  default: false,
  description:
    'Pipework: start it in the background as an async run and answer `correlationId` at once; poll it with async.poll.',
};

/** `pipeline.run` names the pipeline by `path` (the reference's current name), `key` or `name` (deprecated). */
function referenceParameter(ctx: CommandContext<ServerServices>): ReferenceParameter {
  const given = (['path', 'key', 'name'] as const).find((p) => ctx.params[p] !== undefined);
  if (!given) {
    throw new PipeworkError(
      'PARAM_INVALID',
      "Missing required parameter 'path' for command 'pipeline.run' (or its deprecated forms 'key', 'name').",
      { parameter: 'path' },
    );
  }
  return given;
}

export const pipelineStart = defineCommand<ServerServices>(
  {
    name: 'pipeline.start',
    summary:
      'Runs the stored pipeline at `key` with the current body and `vars`; its final body is the result.',
    description:
      'The pipeline is read as the caller and run as the caller bound by its author (never with more rights than whoever stored it). `vars` are set over the pipeline’s own vars (values are taken as they are, never evaluated again). Pipelines may start one another up to 10 deep; deeper (a pipeline starting itself) ends with LIMIT_EXCEEDED.',
    parameters: {
      key: {
        type: 'string',
        minLength: 1,
        description: 'The property key of the pipeline, e.g. global/app/shop/pipeline/total.',
      },
      vars: { type: ['object', 'string'], description: 'Variables for the pipeline, over its own vars.' },
      async: asyncParameter,
    },
    required: ['key'],
    defaultParameter: 'key',
    input: 'any',
    output: 'any',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Run a stored pipeline',
        pipeline:
          'pipeline:\n  - pipeline.start:\n      key: global/app/shop/pipeline/total\n      vars: {currency: EUR}\n',
      },
    ],
  },
  (ctx) => start(ctx, 'key'),
);

export const pipelineRun = defineCommand<ServerServices>(
  {
    name: 'pipeline.run',
    summary: 'DEPRECATED: use pipeline.start. Runs the stored pipeline `path` with the current body.',
    parameters: {
      path: { type: 'string', minLength: 1, description: 'The property key of the pipeline.' },
      key: { type: 'string', minLength: 1, description: 'Deprecated: use path.' },
      name: { type: 'string', minLength: 1, description: 'Deprecated: use path.' },
      vars: { type: ['object', 'string'], description: 'Variables for the pipeline, over its own vars.' },
      async: asyncParameter,
    },
    defaultParameter: 'path',
    input: 'any',
    output: 'any',
    effect: 'write',
    audience: 'developer',
  },
  (ctx) => start(ctx, referenceParameter(ctx)),
);
