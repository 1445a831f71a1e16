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
});
