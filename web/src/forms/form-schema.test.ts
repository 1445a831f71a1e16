import { describe, expect, it } from 'vitest';
import { columnsOf, errorTreeOf, normalizeSchema, uiSchemaOf } from './form-schema';

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'String', title: 'Name *' },
    when: { type: 'dateTime', title: 'When' },
    tags: { type: 'string', enum: [] },
    secret: { type: 'string', piStyle: { hidden: true } },
    note: { type: 'string', maxLength: 2000 },
    file: { type: 'object', properties: { filename: { type: 'string' }, content: { type: 'string' } } },
  },
};

describe('form schema', () => {
  it('reads lenient types, drops empty enums and keeps the original untouched', () => {
    const s = normalizeSchema(SCHEMA) as { properties: Record<string, Record<string, unknown>> };
    expect(s.properties.name!.type).toBe('string');
    expect(s.properties.when).toMatchObject({ type: 'string', format: 'date-time' });
    expect(s.properties.tags!.enum).toBeUndefined();
    expect(SCHEMA.properties.when.type).toBe('dateTime');
    expect(() => normalizeSchema({ type: 'object', properties: { x: { type: 'wat' } } })).toThrow(/wat/);
    expect(() => normalizeSchema('nope')).toThrow(/not a JSON object/);
  });

  it('hides piStyle.hidden fields, draws files as pickers and long text as areas; lists visible fields', () => {
    const s = normalizeSchema(SCHEMA);
    expect(uiSchemaOf(s)).toEqual({
      secret: { 'ui:widget': 'hidden' },
      note: { 'ui:widget': 'textarea' },
      file: { 'ui:field': 'file' },
    });
    expect(columnsOf(s).map((c) => c.title)).toEqual(['Name', 'When', 'tags', 'note']);
  });

  it("places the server's field errors at their fields", () => {
    expect(
      errorTreeOf([
        { instancePath: '/a/b', message: 'bad' },
        { instancePath: '', message: 'top' },
      ]),
    ).toEqual({ a: { b: { __errors: ['bad'] } }, __errors: ['top'] });
  });
});
