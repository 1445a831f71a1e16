import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache';

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

  it('keeps the total weight bounded and does not keep an entry heavier than a quarter of it', () => {
    const c = new LruCache<number>(100, 100);
    for (let i = 0; i < 10; i++) c.set(`${i}`.padEnd(20, 'x'), i);
    expect(c.totalWeight).toBeLessThanOrEqual(100);
    expect(c.size).toBe(5);
    c.set('y'.repeat(26), 1);
    expect(c.get('y'.repeat(26))).toBeUndefined();
    c.clear();
    expect(c.totalWeight).toBe(0);
  });
});
