import { describe, expect, it } from 'vitest';
import { stringifyBounded } from './bounded-json';

describe('stringifyBounded', () => {
  it('writes what fits', () => {
    expect(stringifyBounded({ a: [1, 'x', true, null] }, 100)).toEqual({
      ok: true,
      text: '{"a":[1,"x",true,null]}',
    });
  });

  it('stops early on a value that is small in memory but huge as text', () => {
    const big = 'x'.repeat(1_000_000);
    const many = Array.from({ length: 100_000 }, () => big); // 100 GB of text
    const started = performance.now();
    expect(stringifyBounded(many, 10_000_000)).toEqual({ ok: false, reason: 'too-large' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it.each([
    [
      'a cycle',
      (() => {
        const a: Record<string, unknown> = {};
        a.self = a;
        return a;
      })(),
      'cyclic',
    ],
    [
      '50,000 levels',
      (() => {
        let deep: unknown = [];
        for (let i = 0; i < 50_000; i++) deep = [deep];
        return deep;
      })(),
      'too-deep',
    ],
    ['a bigint', { n: 1n }, 'not-json'],
    ['undefined', undefined, 'not-json'],
  ])('refuses %s', (_name, value, reason) => {
    expect(stringifyBounded(value, 1_000_000)).toEqual({ ok: false, reason });
  });

  it('answers plain data exactly as its general path does, at every limit', () => {
    const values: unknown[] = [
      { a: [1, 'x', true, null], b: { c: 'déjà', d: undefined, e: () => 1 }, f: [Symbol('s'), undefined] },
      ['', 0, Number.NaN, { '': [] }, Object.assign(Object.create(null) as object, { n: 'null prototype' })],
      'a string at the top',
      Array.from({ length: 30 }, (_, i) => ({ i, name: `item ${i}` })),
    ];
    for (const value of values) {
      const longest = JSON.stringify(value).length * 3;
      for (let maxChars = 0; maxChars <= longest; maxChars++) {
        // A toJSON at the top sends the same value down the general path (the replacer sees what it returns).
        const general = stringifyBounded({ toJSON: () => value }, maxChars);
        expect(stringifyBounded(value, maxChars), `${JSON.stringify(value)} at ${maxChars}`).toEqual(general);
      }
    }
  });
});
