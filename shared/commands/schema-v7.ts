/** Generates the draft-07 pipeline schema (`pipe.schema.v7`) from the command contracts: one source, no copy. */
import { COMMON_PARAMETERS } from './common-parameters';
import type { CommandContract, ControlFlowRole, ValueKind } from './contract';
import type { JsonSchema } from './json-schema';

const KIND_NAMES: Record<ValueKind, string> = {
  none: 'Void',
  json: 'JsonNode',
  text: 'String',
  bytes: 'Byte',
  any: 'JsonNode',
};

/** The keyword of each command entry that carries the rest of its contract (JSON Schema ignores it). */
export const PIPEWORK_KEYWORD = 'x-pipework';

/** The contract's fields beyond parameters and required: enough to validate a pipeline from the schema alone. */
export interface PipeworkSchemaExtension {
  /** The command's own name (an alias's entry names the command it calls). */
  name: string;
  defaultParameter?: string;
  controlFlow?: ControlFlowRole;
  rawParameters?: string[];
  requiredOneOf?: string[][];
  openParameters?: boolean;
}

const HEADERS: Record<string, JsonSchema> = {
  name: { type: 'string', description: 'The name of this pipeline (optional).' },
  description: { type: 'string', description: 'The description of this pipeline (optional).' },
  onCommandError: {
    type: 'string',
    description:
      'What happens when a command fails: THROW (default: stop), IGNORE (log a warning, go on), LOG (log an error, go on), or RETRY; times=N; wait=S; then=THROW|IGNORE|LOG.',
  },
  onError: { type: 'string', description: 'Same as onCommandError.' },
  apiVersion: { type: 'string', description: 'The version of the commands API. Default: latest.' },
};

function typesOf(schema: JsonSchema | undefined): string[] {
  if (!schema?.type) return ['string', 'number', 'boolean', 'array'];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/**
 * One command's entry, shaped like the reference schema (`type: object` with `properties` and `required`).
 * `- name` (null) and `- name: value` (the default parameter's type) are allowed by widening `type`;
 * `properties` and `required` only constrain the object form.
 */
function commandSchema(contract: CommandContract): Record<string, unknown> {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(contract.parameters)) properties[name] = schema;
  for (const [name, schema] of Object.entries(COMMON_PARAMETERS))
    if (!(name in properties)) properties[name] = schema;
  const types = new Set(['object', 'null']);
  if (contract.defaultParameter)
    for (const t of typesOf(contract.parameters[contract.defaultParameter])) types.add(t);
  const defaultNote = contract.defaultParameter
    ? ` Short form: - ${contract.name}: <${contract.defaultParameter}>.`
    : '';
  const oneOfGroups = (contract.requiredOneOf ?? []).map((group) => ({
    anyOf: group.map((name) => ({ required: [name] })),
  }));
  return {
    type: [...types],
    description: contract.summary + defaultNote + requiredOneOfNote(contract),
    inputType: KIND_NAMES[contract.input],
    outputType: KIND_NAMES[contract.output],
    properties,
    required: contract.required ?? [],
    // `required` binds only the object form, so `- property.get: <key>` still passes.
    ...(oneOfGroups.length === 1 ? oneOfGroups[0] : oneOfGroups.length ? { allOf: oneOfGroups } : {}),
    additionalProperties: contract.openParameters === true,
    [PIPEWORK_KEYWORD]: extensionOf(contract),
  };
}

/** " Requires path or key." for each `requiredOneOf` group. */
function requiredOneOfNote(contract: CommandContract): string {
  return (contract.requiredOneOf ?? []).map((group) => ` Requires ${group.join(' or ')}.`).join('');
}

/** What of a contract the schema's standard keywords cannot say, for the workbench's own validator. */
function extensionOf(contract: CommandContract): PipeworkSchemaExtension {
  const out: PipeworkSchemaExtension = { name: contract.name };
  if (contract.defaultParameter) out.defaultParameter = contract.defaultParameter;
  if (contract.controlFlow) out.controlFlow = contract.controlFlow;
  if (contract.rawParameters?.length) out.rawParameters = contract.rawParameters;
  if (contract.requiredOneOf?.length) out.requiredOneOf = contract.requiredOneOf;
  if (contract.openParameters) out.openParameters = true;
  return out;
}

/** The JSON Schema (draft-07) of a pipeline script that lists every command and its parameters. */
export function generatePipelineSchema(contracts: readonly CommandContract[]): Record<string, unknown> {
  const names = contracts.flatMap((c) => [c.name, ...(c.aliases ?? [])]).sort();
  const byName = new Map(
    contracts.flatMap((c) => [c.name, ...(c.aliases ?? [])].map((n) => [n, c] as const)),
  );
  const itemProperties: Record<string, unknown> = {};
  for (const name of names) itemProperties[name] = commandSchema(byName.get(name)!);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'urn:pipework:pipeline.schema.json',
    title: 'Pipelines',
    description: 'A Pipework pipeline script: headers, vars, pipeline (the commands, in order) and body.',
    type: 'object',
    properties: {
      headers: {
        type: 'object',
        description: 'Name-value pairs of text: configuration hints for this run.',
        properties: HEADERS,
        additionalProperties: { type: ['string', 'number', 'boolean'] },
      },
      vars: {
        type: 'object',
        description: 'Variables that may change while the pipeline runs; any JSON values.',
      },
      body: { description: 'The initial body; null when not set.' },
      pipeline: {
        type: 'array',
        description: 'The commands to run, in this order.',
        minItems: 1,
        items: {
          type: ['object', 'string'],
          description:
            'A command: its name alone, or its name with its parameters (or its default parameter).',
          properties: itemProperties,
          additionalProperties: false,
          minProperties: 1,
          maxProperties: 1,
        },
      },
    },
    required: ['pipeline'],
    additionalProperties: false,
  };
}
