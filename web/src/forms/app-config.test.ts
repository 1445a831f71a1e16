import { describe, expect, it } from 'vitest';
import { configFor, configuredColumns, cssSize, layoutFields } from './app-config';
import { titleOfPath } from './form-schema';

const OBJECT = 'global/app/shop/object/order/v1';

describe('configFor', () => {
  it('finds the configuration that names the object in its schema address, else by its own name', () => {
    const byAddress = {
      key: 'global/app/shop/form/a',
      value: JSON.stringify({ schema: `property.list?filter=${encodeURIComponent(OBJECT)}/schema` }),
    };
    const other = { key: 'global/app/shop/form/b', value: '{"schema":"global/app/shop/object/x/v1/schema"}' };
    const byName = { key: 'global/app/shop/list/order', value: '{"title":"Orders"}' };
    expect(configFor([other, byAddress], OBJECT)?.key).toBe('global/app/shop/form/a');
    expect(configFor([byName], OBJECT)?.title).toBe('Orders');
    expect(configFor([other], OBJECT)).toBeUndefined();
    expect(configFor([{ key: 'global/app/shop/form/order', value: 'not json' }], OBJECT)).toBeUndefined();
  });
});

describe('layoutFields', () => {
  it('lists the fields of nested layouts in order, once each', () => {
    const layout = {
      orientation: 'horizontal' as const,
      items: [{ items: [{ field: 'a' }, { field: 'c' }] }, { items: [{ field: 'b' }, { field: 'a' }] }],
    };
    expect(layoutFields(layout)).toEqual(['a', 'c', 'b']);
    expect(layoutFields(undefined)).toEqual([]);
  });

  it('reads plain sizes as pixels and nothing that could inject CSS', () => {
    expect(cssSize('150')).toBe('150px');
    expect(cssSize('50%')).toBe('50%');
    expect(cssSize('1px; background: red')).toBeUndefined();
  });
});

describe('configuredColumns', () => {
  const columns = [
    { field: 'a', title: 'A' },
    { field: 'b', title: 'B' },
    { field: 'c', title: 'C' },
  ];
  it('orders, retitles and leaves out columns as configured; unknown fields are ignored', () => {
    const config = { key: 'k', columns: ['c', { field: 'a', title: 'First' }, 'nope', 'c'] };
    expect(configuredColumns(columns, config)).toEqual([
      { field: 'c', title: 'C' },
      { field: 'a', title: 'First' },
    ]);
    expect(configuredColumns(columns, undefined)).toEqual(columns);
    expect(configuredColumns(columns, { key: 'k', columns: ['nope'] })).toEqual(columns);
  });
});

describe('titleOfPath', () => {
  it('names a field of an error by its title, in arrays by position', () => {
    const schema = {
      type: 'object' as const,
      properties: {
        senderEmail: { type: 'string' as const, title: 'E-Mail *' },
        items: {
          type: 'array' as const,
          title: 'Positions',
          items: {
            type: 'object' as const,
            properties: { amount: { type: 'number' as const, title: 'Amount' } },
          },
        },
        plain: { type: 'string' as const },
      },
    };
    expect(titleOfPath(schema, '.senderEmail')).toBe('E-Mail');
    expect(titleOfPath(schema, '.items.0.amount')).toBe('Positions 1 › Amount');
    expect(titleOfPath(schema, '.plain')).toBe('plain');
    expect(titleOfPath(schema, '')).toBe('');
  });
});
