/**
 * For tests only: a minimal `pipeline.start` (key; the body goes in, the final body comes out) for servers
 * built before the real one (scripts and data commands) exists. The example apps' tests start stored pipelines.
 */
import { defineCommand, type CommandDefinition } from '../../../../shared/commands';
import { parsePipeline } from '../../../../shared/pipeline';
import { serverCommands } from '../..';
import { executePipeline } from '../../../pipeline/execute-pipeline';
import type { ServerServices } from '../../../services';

const standIn = defineCommand<ServerServices>(
  {
    name: 'pipeline.start',
    summary: 'Test stand-in: runs the stored pipeline at key with the body.',
    parameters: { key: { type: 'string' } },
    required: ['key'],
    defaultParameter: 'key',
    input: 'any',
    output: 'any',
  },
  async (ctx) => {
    const property = await ctx.services.properties.get(ctx.principal, ctx.params.key);
    const script = parsePipeline(property.value ?? '', 'yaml');
    const result = await executePipeline(
      ctx.services,
      { ...script, body: ctx.input },
      { principal: ctx.principal },
    );
    return result.body;
  },
);

/** The stand-in, when this server has no `pipeline.start` of its own. */
export function pipelineStartUnlessPresent(): CommandDefinition<ServerServices>[] {
  return serverCommands.some((c) => c.contract.name === 'pipeline.start') ? [] : [standIn];
}
