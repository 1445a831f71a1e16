/** `pipeline.get`: the persisted pipelines (under `global/app/<app>/pipeline/`) whose name matches, as properties. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { nameOfKey } from '../../../shared/property';
import type { ServerServices } from '../../services';

/** `*` matches any run of characters within a name; nothing else is special. */
function nameMatcher(pattern: string): (name: string) => boolean {
  const parts = pattern.split('*');
  return (name) => {
    if (parts.length === 1) return name === pattern;
    if (!name.startsWith(parts[0]!) || !name.endsWith(parts[parts.length - 1]!)) return false;
    let at = parts[0]!.length;
    const end = name.length - parts[parts.length - 1]!.length;
    for (const part of parts.slice(1, -1)) {
      const found = name.indexOf(part, at);
      if (found < 0 || found + part.length > end) return false;
      at = found + part.length;
    }
    return at <= end;
  };
}

export const pipelineGet = defineCommand<ServerServices>(
  {
    name: 'pipeline.get',
    effect: 'read',
    audience: 'developer',
    summary: 'Returns all persisted pipelines (the caller may read) whose name matches; * matches any text.',
    parameters: {
      name: {
        type: 'string',
        maxLength: 200,
        description: 'The name of the pipeline to search for; * matches any text. Empty: every pipeline.',
      },
    },
    input: 'any',
    output: 'json',
  },
  async (ctx) => {
    const name = typeof ctx.params.name === 'string' && ctx.params.name !== '' ? ctx.params.name : '*';
    if (name.includes('/')) {
      throw new PipeworkError('PARAM_INVALID', 'A pipeline name has no /: give the last part of its key.', {
        parameter: 'name',
      });
    }
    const matches = nameMatcher(name);
    const listed = await ctx.services.properties.list(ctx.principal, 'global/app/*/pipeline/**');
    return listed.filter((property) => matches(nameOfKey(property.key)));
  },
);
