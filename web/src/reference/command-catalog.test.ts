import { describe, expect, it } from 'vitest';
import { generatePipelineSchema } from '../../../shared/commands';
import type { CommandContract } from '../../../shared/commands';
import { commandCatalog, searchCommands } from '../../../shared/commands/schema-catalog';
import { commandSnippet } from './command-snippet';

const contracts: CommandContract[] = [
  {
    name: 'property.keys',
    aliases: ['property.path.list'],
    summary: 'Returns the keys matching a pattern.',
    parameters: { pattern: { type: 'string', description: 'A key pattern.' } },
    defaultParameter: 'pattern',
    input: 'any',
    output: 'json',
  },
  {
    name: 'property.put',
    summary: 'Sets the value of an existing property.',
    parameters: {
      key: { type: 'string', description: 'The key.' },
      version: { type: 'integer', description: 'The version.' },
      evalValue: { type: 'boolean', default: true, description: 'Evaluate.' },
    },
    required: ['key'],
    input: 'any',
    output: 'json',
  },
  { name: 'log', summary: 'Logs a message.', parameters: {}, input: 'any', output: 'any' },
];
const catalog = commandCatalog(generatePipelineSchema(contracts));

describe('commandCatalog', () => {
  it('folds aliases into their command and sorts by name', () => {
    expect(catalog.map((c) => [c.name, c.aliases])).toEqual([
      ['log', []],
      ['property.keys', ['property.path.list']],
      ['property.put', []],
    ]);
  });

  it('lists required parameters first, with types and defaults, and the common ones last', () => {
    const put = catalog.find((c) => c.name === 'property.put')!;
    const own = put.parameters.filter((p) => !p.common);
    expect(own.map((p) => [p.name, p.types, p.required, p.default])).toEqual([
      ['key', ['string'], true, undefined],
      ['version', ['integer'], false, undefined],
      ['evalValue', ['boolean'], false, true],
    ]);
    expect(put.parameters.at(-1)!.common).toBe(true);
    expect(put.outputType).toBe('JsonNode');
  });

  it('gives an empty catalogue for something that is no schema', () => {
    expect(commandCatalog(null)).toEqual([]);
    expect(commandCatalog({ properties: {} })).toEqual([]);
  });
});

describe('searchCommands', () => {
  it('needs every word and ranks name matches first', () => {
    expect(searchCommands(catalog, 'property').map((c) => c.name)).toEqual(['property.keys', 'property.put']);
    expect(searchCommands(catalog, 'path list').map((c) => c.name)).toEqual(['property.keys']);
    expect(searchCommands(catalog, 'version existing').map((c) => c.name)).toEqual(['property.put']);
    expect(searchCommands(catalog, 'nothing-like-this')).toEqual([]);
    expect(searchCommands(catalog, '  ')).toHaveLength(3);
  });
});

describe('commandSnippet', () => {
  it('writes the step with its required parameters', () => {
    expect(commandSnippet(catalog.find((c) => c.name === 'property.put')!)).toBe(
      '  - property.put:\n      key: "<key>"\n',
    );
    expect(commandSnippet(catalog.find((c) => c.name === 'log')!)).toBe('  - log\n');
  });
});
