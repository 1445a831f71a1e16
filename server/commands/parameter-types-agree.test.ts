// The static parameter type checks (shared/json-schema/check-schema.ts, interpreted so that the editor's worker
// can run them under a policy without generated code) say what ajv says at run time: for every parameter of
// every server command and a spread of values, the same first problem (or none) and the same coerced value.
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { CommandRegistry, COMMON_PARAMETERS } from '../../shared/commands';
import { checkSchema } from '../../shared/json-schema/check-schema';
import { serverCommands } from './index';

const ajv = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: false, strict: false });

const SAMPLES: unknown[] = [
  '5',
  ' 7 ',
  '5.5',
  '-3',
  '0x10',
  '',
  'true',
  'false',
  'null',
  'abc',
  'Abc-1_x',
  'x'.repeat(300),
  5,
  0,
  1,
  -1,
  5.5,
  1e9,
  true,
  false,
  null,
  [],
  ['a'],
  [1, 'b'],
  [[1]],
  {},
  { a: 1 },
  { a: { b: [1] } },
];

function firstProblem(
  errors: { instancePath: string; keyword: string; message?: string }[] | null | undefined,
) {
  const first = errors?.[0];
  return first ? { at: first.instancePath, keyword: first.keyword, message: first.message } : null;
}

describe('static parameter type checks agree with ajv', () => {
  const contracts = new CommandRegistry(serverCommands).contracts();

  it('covers the commands', () => {
    expect(contracts.length).toBeGreaterThan(100);
  });

  it.each(contracts.map((contract) => [contract.name, contract] as const))('%s', (_name, contract) => {
    const properties = { ...COMMON_PARAMETERS, ...contract.parameters };
    const schema = { type: 'object', properties, additionalProperties: true };
    const compiled = ajv.compile(schema);
    for (const name of Object.keys(properties)) {
      for (const sample of SAMPLES) {
        const byAjv: Record<string, unknown> = { [name]: structuredClone(sample) };
        const ours: Record<string, unknown> = { [name]: structuredClone(sample) };
        compiled(byAjv);
        const expected = firstProblem(compiled.errors);
        const actual = firstProblem(checkSchema(schema, ours, { coerceTypes: true }));
        expect({ name, sample, problem: actual, value: ours[name] }).toEqual({
          name,
          sample,
          problem: expected,
          value: byAjv[name],
        });
      }
    }
  });
});
