import { describe, expect, it } from 'vitest';
import { checkSchema } from './check-schema';

const SCHEMA = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 2, pattern: '^[A-Z]' },
    email: { type: 'string', format: 'email' },
    amount: { type: 'number', minimum: 0, maximum: 10 },
    kind: { type: 'string', enum: ['a', 'b'] },
    tags: { type: 'array', items: { type: 'string', maxLength: 3 } },
  },
};

describe('checkSchema', () => {
  it('accepts valid data', () => {
    expect(checkSchema(SCHEMA, { name: 'Ann', email: 'a@b.ch', amount: 3, kind: 'a', tags: ['x'] })).toEqual(
      [],
    );
  });

  it('reports each violation at its field, in ajv shape', () => {
    const errors = checkSchema(SCHEMA, { name: 'a', email: 'no', amount: 11, kind: 'c', tags: ['long'] });
    expect(errors.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual([
      '/name minLength',
      '/name pattern',
      '/email format',
      '/amount maximum',
      '/kind enum',
      '/tags/0 maxLength',
    ]);
    expect(checkSchema(SCHEMA, {}).map((e) => e.message)).toEqual(["must have required property 'name'"]);
    expect(checkSchema(SCHEMA, { name: 5 })[0]).toMatchObject({ instancePath: '/name', keyword: 'type' });
  });
});
