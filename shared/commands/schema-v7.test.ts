import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { coreCommands } from './core';
import { CommandRegistry } from './registry';
import { generatePipelineSchema } from './schema-v7';

const schema = generatePipelineSchema(new CommandRegistry(coreCommands).contracts());
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);

describe('the generated v7 pipeline schema', () => {
  it('has the shape of the reference schema', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const items = (
      schema.properties as Record<string, { items: { properties: Record<string, Record<string, unknown>> } }>
    ).pipeline.items;
    expect(items.properties.log).toMatchObject({
      inputType: 'JsonNode',
      outputType: 'JsonNode',
      properties: { message: {}, level: {} },
    });
    expect(items.properties['body.set']).toBeDefined(); // aliases are listed too
  });

  it.each([
    [
      'a pipeline with every item form',
      'pipeline:\n  - log\n  - log: hello\n  - log:\n      message: x\n      level: WARN\n      if: "#{true}"\n',
    ],
    [
      'headers, vars and body',
      'headers:\n  onCommandError: IGNORE\nvars:\n  a: {b: 1}\nbody: [1]\npipeline:\n  - set.body: 1\n',
    ],
  ])('accepts %s', (_name, yaml) => {
    expect(validate(parse(yaml)), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ['an unknown command', 'pipeline:\n  - no.such: 1\n'],
    ['an unknown parameter', 'pipeline:\n  - log:\n      mesage: x\n'],
    ['a wrong enum value', 'pipeline:\n  - log:\n      level: LOUD\n'],
    ['two commands in one item', 'pipeline:\n  - log: a\n    datetime: b\n'],
    ['an unknown section', 'pipeline:\n  - log\nextra: 1\n'],
    ['no pipeline', 'body: 1\n'],
  ])('rejects %s', (_name, yaml) => {
    expect(validate(parse(yaml))).toBe(false);
  });
});
