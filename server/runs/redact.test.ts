// What the run history keeps of a value: secret-named members masked, the copy made in one pass for plain
// JSON and refused (for the general path) for anything else.
import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactedJsonCopy } from './redact';

describe('redactedJsonCopy', () => {
  it('gives the same copy as JSON round trip then redact, for plain JSON', () => {
    const values: unknown[] = [
      { name: 'ada', items: [2, 3, 4], nested: { password: 'p', token: null, ok: true } },
      [1, 'two', { apiKey: 'k', list: [{ secret: { deep: 1 } }] }],
      'text',
      0,
      null,
      { Authorization: 'Bearer x', empty: {}, arr: [] },
    ];
    for (const value of values) {
      expect(redactedJsonCopy(value, 10_000)).toEqual(redact(JSON.parse(JSON.stringify(value))));
    }
    expect(redactedJsonCopy({ password: 'p' }, 100)).toEqual({ password: REDACTED });
  });

  it('is a copy: changing the value afterwards does not change it', () => {
    const value = { items: [1, 2], inner: { a: 'x' } };
    const copy = redactedJsonCopy(value, 1000) as typeof value;
    value.items.push(3);
    value.inner.a = 'y';
    expect(copy).toEqual({ items: [1, 2], inner: { a: 'x' } });
  });

  it('leaves anything but bounded plain JSON to the general path', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [
      cyclic,
      { when: new Date(0) },
      { missing: undefined },
      { n: Number.NaN },
      new Uint8Array(2),
      { long: 'x'.repeat(200) },
      () => 1,
    ]) {
      expect(redactedJsonCopy(value, 100)).toBeUndefined();
    }
  });
});
