/** `call`: runs a stored pipeline by URI with arguments as its vars; remote URLs are http.*'s work. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { mapParam } from './pipeline-start';
import { runStoredPipeline } from './run-stored-pipeline';

/** `args` as a map, JSON text, or `name=value, name2=value2` (also `name: value`). */
export function argsOf(value: unknown): Record<string, unknown> {
  if (typeof value === 'string' && value.trim() !== '' && !value.trim().startsWith('{')) {
    const args: Record<string, unknown> = {};
    for (const pair of value.split(',')) {
      if (pair.trim() === '') continue;
      const match = /^\s*([A-Za-z_$][\w$]*)\s*[=:]\s*(.*?)\s*$/.exec(pair);
      if (!match) {
        throw new PipeworkError('PARAM_INVALID', `Argument '${pair.trim()}' must read name=value.`, {
          parameter: 'args',
        });
      }
      args[match[1]!] = match[2];
    }
    return args;
  }
  return mapParam(value, 'args');
}

export const call = defineCommand<ServerServices>(
  {
    name: 'call',
    summary:
      'Runs the stored pipeline the URI names (property:<key>) with the current body and args as vars.',
    description:
      'The URI is `$uri:property:<key>`, `property:<key>` or the key itself. The arguments are set as vars over the pipeline’s own. The pipeline is read and run as the caller, at most 10 deep. Remote URLs are not called: use http.get or http.post.',
    parameters: {
      uri: {
        type: 'string',
        minLength: 1,
        description: 'The pipeline to run, e.g. property:global/app/shop/pipeline/total.',
      },
      args: {
        type: ['object', 'string'],
        description: 'Arguments: a map, or name=value pairs separated by commas.',
      },
    },
    required: ['uri'],
    defaultParameter: 'uri',
    input: 'any',
    output: 'any',
    effect: 'write',
    examples: [
      {
        title: 'Call a stored pipeline with arguments',
        pipeline:
          'pipeline:\n  - call:\n      uri: property:global/app/shop/pipeline/total\n      args: {currency: EUR}\n',
      },
    ],
  },
  (ctx) => {
    const uri = String(ctx.params.uri).trim();
    const scheme = /^(?:\$uri:)?([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== 'property') {
      const hint = scheme.startsWith('http') ? ' Use http.get or http.post for remote URLs.' : '';
      throw new PipeworkError(
        'PARAM_INVALID',
        `call runs stored pipelines (property:<key>); '${scheme}:' is not supported.${hint}`,
        {
          parameter: 'uri',
        },
      );
    }
    return runStoredPipeline(ctx, uri, argsOf(ctx.params.args), 'uri');
  },
);
