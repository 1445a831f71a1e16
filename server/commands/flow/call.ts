/** `call`: runs a stored pipeline by URI with arguments as its vars; remote URLs are http.*'s work. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { argsOf } from './call-args';
import { runStoredPipeline } from './run-stored-pipeline';

export const call = defineCommand<ServerServices>(
  {
    name: 'call',
    summary:
      'Runs the stored pipeline the URI names (property:<key>) with the current body and args as vars.',
    description:
      'The URI is `$uri:property:<key>`, `$uri:pipeline:<key>`, `property:<key>` or the key itself. The arguments are set as vars over the pipeline’s own. The pipeline is read as the caller and run as the caller bound by its author (never with more rights than whoever stored it), at most 10 deep. Remote URLs are not called: use http.get or http.post.',
    parameters: {
      uri: {
        type: 'string',
        minLength: 1,
        description: 'The pipeline to run, e.g. property:global/app/shop/pipeline/total.',
      },
      args: {
        type: ['object', 'string'],
        description:
          'Arguments: a map, or name=value pairs separated by commas (split as written, before any #{...} is evaluated).',
      },
    },
    rawParameters: ['args'],
    required: ['uri'],
    defaultParameter: 'uri',
    input: 'any',
    output: 'any',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Call a stored pipeline with arguments',
        pipeline:
          'pipeline:\n  - call:\n      uri: property:global/app/shop/pipeline/total\n      args: {currency: EUR}\n',
      },
    ],
  },
  (ctx) => {
    return runStoredPipeline(ctx, String(ctx.params.uri), argsOf(ctx, ctx.params.args), 'uri');
  },
);
