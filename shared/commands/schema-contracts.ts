/**
 * Command contracts read back from the pipeline schema (`pipe.schema.v7`): what the workbench's validator
 * worker needs to check a pipeline exactly as the server does, without a round trip per keystroke.
 */
import type { CommandContract } from './contract';
import type { JsonSchema } from './json-schema';
import { PIPEWORK_KEYWORD, type PipeworkSchemaExtension } from './schema-v7';

interface SchemaEntry {
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [PIPEWORK_KEYWORD]?: PipeworkSchemaExtension;
}

/** Looks commands up by name or alias, as `CommandRegistry` does (the validator's `CommandLookup`). */
export interface SchemaCommandLookup {
  get(name: string): { contract: CommandContract } | undefined;
  contracts(): CommandContract[];
}

/** The contracts of a schema's commands (one per command, aliases folded in) behind a lookup by name. */
export function commandLookupFromSchema(schema: unknown): SchemaCommandLookup {
  const entries =
    (schema as { properties?: { pipeline?: { items?: { properties?: Record<string, SchemaEntry> } } } })
      ?.properties?.pipeline?.items?.properties ?? {};
  const byName = new Map<string, { contract: CommandContract }>();
  const contracts = new Map<string, CommandContract>();
  for (const [name, entry] of Object.entries(entries)) {
    const extension = entry[PIPEWORK_KEYWORD] ?? { name };
    let contract = contracts.get(extension.name);
    if (!contract) {
      contract = {
        name: extension.name,
        aliases: [],
        summary: entry.description ?? '',
        parameters: entry.properties ?? {},
        required: entry.required ?? [],
        input: 'any',
        output: 'any',
        ...(extension.defaultParameter ? { defaultParameter: extension.defaultParameter } : {}),
        ...(extension.controlFlow ? { controlFlow: extension.controlFlow } : {}),
        ...(extension.rawParameters ? { rawParameters: extension.rawParameters } : {}),
        ...(extension.requiredOneOf ? { requiredOneOf: extension.requiredOneOf } : {}),
        ...(extension.openParameters ? { openParameters: true } : {}),
      };
      contracts.set(extension.name, contract);
    }
    if (name !== contract.name) contract.aliases!.push(name);
    byName.set(name, { contract });
  }
  return { get: (name) => byName.get(name), contracts: () => [...contracts.values()] };
}
