import { describe, expect, it } from 'vitest';
import { LruCache } from './cache';

describe('LruCache', () => {
  it('keeps at most its capacity, dropping the least recently used', () => {
    const c = new LruCache<number>(4);
    for (let i = 0; i < 4; i++) c.set(`k${i}`, i);
    for (let i = 4; i < 8; i++) {
      c.get('k0'); // keep k0 warm
      c.set(`k${i}`, i);
    }
    expect(c.size).toBe(4);
    expect(c.get('k0')).toBe(0);
    expect(c.get('k1')).toBeUndefined();
  });
});
