import { describe, expect, it } from 'vitest';
import { copyPlainData } from './plain-copy';

describe('copyPlainData', () => {
  it('copies parsed data deeply: the copy equals the original and shares no object with it', () => {
    const original = { customer: { name: 'Ada' }, items: [{ price: 12.5, qty: 4 }, [1, 'two', null, true]] };
    const copied = copyPlainData(original);
    expect(copied).toEqual(original);
    copied.customer.name = 'changed';
    (copied.items[0] as { qty: number }).qty = 0;
    (copied.items[1] as unknown[]).push('more');
    expect(original).toEqual({
      customer: { name: 'Ada' },
      items: [{ price: 12.5, qty: 4 }, [1, 'two', null, true]],
    });
  });

  it('keeps a __proto__ key a key, not the prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"admin": true}, "a": 1}') as Record<string, unknown>;
    const copied = copyPlainData(parsed);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect((copied as { admin?: boolean }).admin).toBeUndefined();
    expect(Object.keys(copied)).toEqual(['__proto__', 'a']);
    expect(copied['__proto__']).toEqual({ admin: true });
  });

  it('copies bytes, dates and data nested past its depth as structuredClone does', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const when = new Date(0);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200; i++) deep = [deep];
    const copied = copyPlainData({ bytes, when, deep });
    expect(copied.bytes).toEqual(bytes);
    expect(copied.bytes).not.toBe(bytes);
    expect(copied.when.getTime()).toBe(0);
    expect(copied.when).not.toBe(when);
    expect(copied.deep).toEqual(deep);
  });
});
