/** `pipe.schema.v7` and `pipeline.validate`: the pipeline schema for editors, and checking without running. */
import { defineCommand } from '../command-definition';
import { compileTemplate } from '../../pel';
import { isPipeworkError } from '../../errors';
import { validatePipeline, type PipelineSourceKind } from '../../pipeline';
import { generatePipelineSchema } from '../schema-v7';

export const pipeSchemaV7 = defineCommand(
  {
    name: 'pipe.schema.v7',
    aliases: ['pipeline.schema'],
    summary: 'The JSON Schema (draft-07) of pipeline scripts, listing every command and its parameters.',
    parameters: {},
    input: 'none',
    output: 'json',
    effect: 'read',
    permission: 'CAN_PIPE_pipe.schema.v7',
  },
  ({ commands }) => generatePipelineSchema(commands.contracts()),
);

/** The expression checker the validator uses: PEL's own parser. */
export function checkExpression(template: string): { message: string; offset: number } | null {
  try {
    compileTemplate(template);
    return null;
  } catch (error) {
    if (!isPipeworkError(error)) throw error;
    return {
      message: error.message,
      offset: typeof error.details.offset === 'number' ? error.details.offset : 0,
    };
  }
}

export const pipelineValidate = defineCommand(
  {
    name: 'pipeline.validate',
    summary:
      'Checks a pipeline script (the input) without running it and lists its problems with line and column.',
    parameters: {
      format: {
        type: 'string',
        enum: ['yaml', 'json', 'uri'],
        description: 'The form of the script. Default: yaml (JSON input is also read as JSON).',
      },
    },
    input: 'any',
    output: 'json',
    effect: 'read',
  },
  ({ input, params, commands }) => {
    const text = typeof input === 'string' ? input : JSON.stringify(input ?? '');
    const format =
      (params.format as PipelineSourceKind | undefined) ?? (typeof input === 'string' ? 'yaml' : 'json');
    return validatePipeline(text, format, commands, { checkExpression });
  },
);
