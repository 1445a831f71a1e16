/** `pipe.schema.v7` and `pipeline.validate`: the pipeline schema for editors, and checking without running. */
import { defineCommand } from '../command-definition';
import {
  PEL_CACHE_CHARACTERS,
  PEL_CACHE_SIZE,
  analyze,
  compileTemplate,
  containsExpression,
} from '../../pel';
import { LruCache } from '../../values/lru-cache';
import { isPipeworkError } from '../../errors';
import { validatePipeline, type PipelineSourceKind } from '../../pipeline';
import { generatePipelineSchema } from '../schema-v7';

export const pipeSchemaV7 = defineCommand(
  {
    name: 'pipe.schema.v7',
    aliases: ['pipeline.schema', 'pipeline.schema.get'],
    summary: 'The JSON Schema (draft-07) of pipeline scripts, listing every command and its parameters.',
    parameters: {},
    input: 'none',
    output: 'json',
    effect: 'read',
    audience: 'user',
    permission: 'CAN_PIPE_pipe.schema.v7',
  },
  ({ commands }) => generatePipelineSchema(commands.contracts()),
);

/** The schema of one command (its contract's parameters), or of all of them: the real product's `pipe.schema`. */
export function commandSchemaOf(
  contracts: readonly {
    name: string;
    aliases?: string[];
    summary: string;
    parameters: object;
    required?: string[];
  }[],
  pipe: string,
): unknown {
  const contract = contracts.find((c) => c.name === pipe || (c.aliases ?? []).includes(pipe));
  if (!contract) return null;
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: contract.name,
    description: contract.summary,
    type: 'object',
    properties: contract.parameters,
    required: contract.required ?? [],
  };
}

export const pipeSchema = defineCommand(
  {
    name: 'pipe.schema',
    effect: 'read',
    audience: 'user',
    summary: 'The JSON Schema of every command (the pipeline schema), or with `pipe` of that one command.',
    parameters: { pipe: { type: 'string', description: 'Only the schema of this command.' } },
    input: 'none',
    output: 'json',
    permission: 'CAN_PIPE_pipe.schema',
  },
  ({ commands, params }) =>
    typeof params.pipe === 'string' && params.pipe !== ''
      ? commandSchemaOf(commands.contracts(), params.pipe)
      : generatePipelineSchema(commands.contracts()),
);

/** What fails the moment it runs although it parses: unknown utilities and functions, bad literal arguments. */
const FAILS_AT_ONCE = new Set(['UNKNOWN_UTILITY', 'UNKNOWN_FUNCTION', 'UTILITY_FAILED']);

/** What `checkExpression` finds: a message and the offset in the template it points at. */
export interface ExpressionFault {
  message: string;
  offset: number;
  code?: string;
}

/**
 * Each distinct template is checked once, whatever pipeline text it came in (a pipeline whose data changes per
 * request repeats the same expressions): the answer depends on the template's text alone.
 */
const checkedTemplates = new LruCache<ExpressionFault | null>(PEL_CACHE_SIZE, PEL_CACHE_CHARACTERS);

/**
 * The expression checker the validator uses: PEL's own parser, then the analyzer's findings that fail at run
 * time for certain (an unknown utility or function, a date pattern with an unknown letter, a URI form that
 * does not exist).
 */
export function checkExpression(template: string): ExpressionFault | null {
  const known = checkedTemplates.get(template);
  if (known !== undefined) return known;
  const fault = checkTemplate(template);
  checkedTemplates.set(template, fault);
  return fault;
}

function checkTemplate(template: string): ExpressionFault | null {
  try {
    compileTemplate(template);
    if (!containsExpression(template)) return null;
    const failing = analyze(template, { mode: 'template' }).diagnostics.find((d) =>
      FAILS_AT_ONCE.has(d.reason),
    );
    return failing ? { message: failing.message, offset: failing.start, code: failing.code } : null;
  } catch (error) {
    if (!isPipeworkError(error)) throw error;
    return {
      message: error.message,
      offset: typeof error.details.offset === 'number' ? error.details.offset : 0,
      // A limit (nesting, length) keeps its own code: the run would have failed with it.
      code: error.code === 'LIMIT_EXCEEDED' ? error.code : undefined,
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
    audience: 'user',
  },
  ({ input, params, commands }) => {
    const text = typeof input === 'string' ? input : JSON.stringify(input ?? '');
    const format =
      (params.format as PipelineSourceKind | undefined) ?? (typeof input === 'string' ? 'yaml' : 'json');
    return validatePipeline(text, format, commands, { checkExpression });
  },
);
