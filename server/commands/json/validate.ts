/** `json.validate`: checks a JSON document, and optionally validates it against a JSON Schema (ajv, regexes by RE2). */
import Ajv, { type ErrorObject, type Options } from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
import { defineCommand, type CommandContext } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { looksLikeUri } from '../../../shared/uri/custom-uri';
import type { ServerServices } from '../../services';
import { resolveUriParameter } from '../../uri/resolve-uri';

/** A schema's JSON text at most (characters): ajv compiles a schema into code, so a huge one is refused first. */
export const MAX_SCHEMA_CHARS = 256 * 1024;
/** Validation errors put in the message at most. */
const MAX_REPORTED = 50;

/**
 * `pattern` and `patternProperties` run on RE2 (linear in the text, no backtracking): a schema is user
 * input, and `(a+)+$` on JavaScript's engine would hold the event loop.
 */
const re2Engine = Object.assign(
  (pattern: string) => {
    const re = RE2JS.compile(pattern);
    return { test: (text: string) => re.matcher(text).find() };
  },
  { code: 're2js' },
);

const OPTIONS: Options = { allErrors: true, strict: false, logger: false, code: { regExp: re2Engine } };

const VERSIONS: Record<string, () => Ajv> = {
  V6: () => new Ajv(OPTIONS),
  V7: () => new Ajv(OPTIONS),
  V201909: () => new Ajv2019(OPTIONS) as unknown as Ajv,
  V202012: () => new Ajv2020(OPTIONS) as unknown as Ajv,
};

/** The draft a schema names in `$schema`, when it names one of ours. */
function draftNamedBy(schema: unknown): string | undefined {
  const named = schema instanceof Object && '$schema' in schema ? String(schema.$schema) : '';
  if (named.includes('2020-12')) return 'V202012';
  if (named.includes('2019-09')) return 'V201909';
  if (named.includes('draft-07')) return 'V7';
  if (named.includes('draft-06')) return 'V6';
  return undefined;
}

/**
 * Compiles with the draft `version` gives or else the one the schema's `$schema` names (V7 when neither does).
 * `$schema` itself is left out of what is compiled: it chose the draft, and ajv would look it up as a meta-schema
 * it may not hold (draft-06).
 */
function compile(schema: unknown, version: unknown) {
  const draft = typeof version === 'string' && version !== '' ? version : (draftNamedBy(schema) ?? 'V7');
  if (!(schema instanceof Object) || !('$schema' in schema))
    return VERSIONS[draft]!().compile(schema as object);
  const body: Record<string, unknown> = { ...(schema as Record<string, unknown>) };
  delete body.$schema;
  return VERSIONS[draft]!().compile(body);
}

function parseJsonText(text: string, what: string, parameter: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PipeworkError('PARAM_INVALID', `${what} is not JSON: ${(error as Error).message}.`, {
      parameter,
    });
  }
}

async function schemaOf(ctx: CommandContext<ServerServices>, given: unknown): Promise<unknown> {
  let schema = given;
  if (typeof schema === 'string' && looksLikeUri(schema))
    schema = await resolveUriParameter(ctx, schema, 'schema', ['property', 'drive']);
  if (schema instanceof Object && 'data' in schema && schema.data instanceof Uint8Array)
    schema = new TextDecoder().decode(schema.data);
  if (typeof schema === 'string') {
    if (schema.length > MAX_SCHEMA_CHARS)
      throw new PipeworkError('PARAM_INVALID', `The schema is longer than ${MAX_SCHEMA_CHARS} characters.`, {
        parameter: 'schema',
      });
    schema = parseJsonText(schema, 'The schema', 'schema');
  } else if (JSON.stringify(schema ?? null).length > MAX_SCHEMA_CHARS) {
    throw new PipeworkError('PARAM_INVALID', `The schema is longer than ${MAX_SCHEMA_CHARS} characters.`, {
      parameter: 'schema',
    });
  }
  if (typeof schema !== 'boolean' && (schema === null || typeof schema !== 'object' || Array.isArray(schema)))
    throw new PipeworkError('PARAM_INVALID', 'The schema must be a JSON object (or true / false).', {
      parameter: 'schema',
    });
  return schema;
}

function describe(errors: ErrorObject[]): string {
  const lines = errors
    .slice(0, MAX_REPORTED)
    .map((e) => `${e.instancePath || '/'}: ${e.message ?? e.keyword}`);
  if (errors.length > MAX_REPORTED) lines.push(`... and ${errors.length - MAX_REPORTED} more`);
  return lines.join('; ');
}

export const jsonValidate = defineCommand<ServerServices>(
  {
    name: 'json.validate',
    aliases: ['validate.json'],
    summary:
      'Checks that the input is JSON and, given a schema, valid against it; gives {status: ok | error, message}, or fails with throwException.',
    description:
      'The schema is a JSON object, its text, or a URI (`$uri:property:<key>`, `uri:property:<key>`, `$uri:drive:<path>`) read as the caller. Text input is parsed as JSON. `pattern` keywords run on RE2 (no backtracking). With `throwException: true` an invalid document ends the run with ASSERTION_FAILED; a schema that is not one is always PARAM_INVALID.',
    parameters: {
      schema: {
        description:
          'The JSON Schema (object, JSON text or URI); without it only the JSON syntax is checked.',
      },
      version: {
        type: 'string',
        enum: Object.keys(VERSIONS),
        description:
          "The JSON Schema draft: V6, V7, V201909 or V202012; without it, the draft the schema's `$schema` names, else V7.",
      },
      throwException: {
        type: 'boolean',
        default: false,
        description: 'Fails the run on an invalid document instead of giving {status: error, message}.',
      },
    },
    input: 'json',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Validate a person',
        pipeline:
          'pipeline:\n  - json.validate:\n      schema: {"type": "object", "properties": {"age": {"type": "number"}}}\n      input: {"age": 23}\n',
      },
    ],
  },
  async (ctx) => {
    const throwing = ctx.params.throwException === true;
    const fail = (message: string) => {
      if (throwing) throw new PipeworkError('ASSERTION_FAILED', `json.validate: ${message}`);
      return { status: 'error', message };
    };
    let document = ctx.input;
    if (typeof document === 'string') {
      try {
        document = JSON.parse(document) as unknown;
      } catch (error) {
        return fail(`The input is not JSON: ${(error as Error).message}`);
      }
    }
    if (ctx.params.schema === undefined || ctx.params.schema === null || ctx.params.schema === '')
      return { status: 'ok', message: '' };
    const schema = await schemaOf(ctx, ctx.params.schema);
    let validate;
    try {
      validate = compile(schema, ctx.params.version);
    } catch (error) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `The schema is not a valid JSON Schema: ${(error as Error).message}`,
        {
          parameter: 'schema',
        },
      );
    }
    if (validate(document)) return { status: 'ok', message: '' };
    return fail(describe(validate.errors ?? []));
  },
);
