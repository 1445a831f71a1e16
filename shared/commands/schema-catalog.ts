/**
 * Turns the pipeline schema (`pipe.schema.v7`) into a catalogue of its commands, read by the workbench's
 * reference and by `pi commands`: one entry per command (aliases folded into it), its parameters with types,
 * defaults and required flags, the common ones set apart.
 */
import { COMMON_PARAMETER_NAMES } from './common-parameters';

export interface ParameterDoc {
  name: string;
  types: string[];
  description: string;
  required: boolean;
  default?: unknown;
  enum?: unknown[];
  common: boolean;
}

export interface CommandDoc {
  name: string;
  aliases: string[];
  description: string;
  inputType?: string;
  outputType?: string;
  parameters: ParameterDoc[];
  /** Groups of parameters of which at least one must be given (the contract's `requiredOneOf`). */
  requiredOneOf?: string[][];
}

interface SchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  inputType?: string;
  outputType?: string;
  items?: SchemaNode;
  'x-pipework'?: { requiredOneOf?: string[][] };
}

function typesOf(node: SchemaNode): string[] {
  if (node.type === undefined) return node.enum ? ['enum'] : ['any'];
  return Array.isArray(node.type) ? node.type : [node.type];
}

function parametersOf(entry: SchemaNode): ParameterDoc[] {
  const required = new Set(entry.required ?? []);
  const params = Object.entries(entry.properties ?? {}).map(([name, node]) => ({
    name,
    types: typesOf(node),
    description: node.description ?? '',
    required: required.has(name),
    common: COMMON_PARAMETER_NAMES.has(name),
    ...(node.default !== undefined ? { default: node.default } : {}),
    ...(node.enum ? { enum: node.enum } : {}),
  }));
  // Required first, then the command's own, then the common ones; the schema's order within each.
  const rank = (p: ParameterDoc) => (p.required ? 0 : p.common ? 2 : 1);
  return params.sort((a, b) => rank(a) - rank(b));
}

/** The commands of a pipeline schema, sorted by name; names with the very same entry become aliases. */
export function commandCatalog(schema: unknown): CommandDoc[] {
  const pipeline = (schema as { properties?: { pipeline?: SchemaNode } })?.properties?.pipeline;
  const entries = pipeline?.items?.properties ?? {};
  const byEntry = new Map<string, CommandDoc>();
  for (const name of Object.keys(entries).sort()) {
    const entry = entries[name]!;
    const fingerprint = JSON.stringify(entry);
    const known = byEntry.get(fingerprint);
    if (known) {
      known.aliases.push(name);
      continue;
    }
    byEntry.set(fingerprint, {
      name,
      aliases: [],
      description: entry.description ?? '',
      inputType: entry.inputType,
      outputType: entry.outputType,
      parameters: parametersOf(entry),
      ...(entry['x-pipework']?.requiredOneOf ? { requiredOneOf: entry['x-pipework'].requiredOneOf } : {}),
    });
  }
  return [...byEntry.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The commands whose name, alias, description or parameter names contain every word of the query. */
export function searchCommands(commands: readonly CommandDoc[], query: string): CommandDoc[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...commands];
  const scored = commands
    .map((command) => {
      const names = [command.name, ...command.aliases].join(' ').toLowerCase();
      const text =
        `${names} ${command.description} ${command.parameters.map((p) => p.name).join(' ')}`.toLowerCase();
      if (!words.every((w) => text.includes(w))) return null;
      const score = words.reduce((s, w) => s + (names.startsWith(w) ? 3 : names.includes(w) ? 2 : 0), 0);
      return { command, score };
    })
    .filter((x): x is { command: CommandDoc; score: number } => x !== null);
  return scored.sort((a, b) => b.score - a.score).map((x) => x.command);
}
