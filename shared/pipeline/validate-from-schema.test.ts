// The workbench validates with contracts read back from the v7 schema: it must find what the server finds.
import { describe, expect, it } from 'vitest';
import { defineCommand } from '../commands/command-definition';
import { coreCommands } from '../commands/core';
import { checkExpression } from '../commands/core/schema';
import { CommandRegistry } from '../commands/registry';
import { commandLookupFromSchema } from '../commands/schema-contracts';
import { generatePipelineSchema } from '../commands/schema-v7';
import { validatePipeline } from './index';

const propertyGet = defineCommand(
  {
    name: 'property.get',
    summary: 'Reads a property.',
    parameters: { path: { type: 'string' }, key: { type: 'string' } },
    requiredOneOf: [['path', 'key']],
    defaultParameter: 'key',
    input: 'none',
    output: 'json',
  },
  () => null,
);
const registry = new CommandRegistry([...coreCommands, propertyGet]);
const fromSchema = commandLookupFromSchema(
  JSON.parse(JSON.stringify(generatePipelineSchema(registry.contracts()))),
);

const PIPELINES = [
  'pipeline:\n  - lgo: hi\n',
  'pipeline:\n  - log:\n      mesage: x\n',
  'pipeline:\n  - log:\n      level: LOUD\n',
  'pipeline:\n  - if: "#{true}"\n  - log: a\n  - if.else\n  - foreach.end\n',
  'pipeline:\n  - foreach: "#{[1]}"\n  - finally\n  - nope\n  - foreach.end\n',
  'pipeline:\n  - log: "#{@nosuch.thing()}"\n  - set.body: "#{1 +}"\n',
  'pipeline:\n  - property.get\n  - property.get:\n      path: global/x\n  - property.get: global/y\n',
  'pipeline:\n  - body.set: 1\n  - switch:\n      "#{true}": x\n',
  'vars:\n  a: "#{1 +}"\npipeline:\n  - log: "#{vars.a}"\n',
];

describe('validation with contracts read from the v7 schema', () => {
  it.each(PIPELINES)('finds what the registry finds: %s', (text) => {
    const expected = validatePipeline(text, 'yaml', registry, { checkExpression });
    expect(validatePipeline(text, 'yaml', fromSchema, { checkExpression })).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });

  it('reports a missing requiredOneOf group with both names', () => {
    const problems = validatePipeline('pipeline:\n  - property.get\n', 'yaml', fromSchema);
    expect(problems).toMatchObject([
      {
        code: 'PARAM_INVALID',
        severity: 'error',
        message: "Missing required parameter 'path' (or 'key') for command 'property.get'.",
        line: 2,
        column: 5,
      },
    ]);
  });

  it('folds aliases into their command', () => {
    const contract = fromSchema.get('body.set')?.contract;
    expect(contract?.name).toBe('set.body');
    expect(fromSchema.get('set.body')?.contract).toBe(contract);
  });

  it('writes requiredOneOf as anyOf of required in the schema', () => {
    const schema = generatePipelineSchema(registry.contracts()) as {
      properties: { pipeline: { items: { properties: Record<string, Record<string, unknown>> } } };
    };
    expect(schema.properties.pipeline.items.properties['property.get']).toMatchObject({
      anyOf: [{ required: ['path'] }, { required: ['key'] }],
    });
  });
});
