import { describe, expect, it } from 'vitest';
import type { CachedValue } from './cache-store';
import { MemoryCacheStore } from './memory-cache-store';

const json = (value: unknown): CachedValue => ({ kind: 'json', text: JSON.stringify(value) });
const text = (v: CachedValue | undefined) => (v?.kind === 'json' ? JSON.parse(v.text) : v);

describe('MemoryCacheStore', () => {
  it('filled past its entry bound, drops the least recently used entries first', async () => {
    const store = new MemoryCacheStore({ maxEntries: 3, maxBytes: 1_000_000 });
    for (const k of ['a', 'b', 'c']) await store.put('t', k, json(k), 60_000);
    await store.get('t', 'a'); // a is now the most recently used
    await store.put('t', 'd', json('d'), 60_000);
    expect(await store.has('t', 'b')).toBe(false);
    expect(text(await store.get('t', 'a'))).toBe('a');
    for (let i = 0; i < 100; i++) await store.put('t', `k${i}`, json(i), 60_000);
    expect(store.stats().entries).toBe(3);
    expect(text(await store.get('t', 'k99'))).toBe(99);
  });

  it('filled past its byte bound, keeps the bytes under it; a value alone over it is refused', async () => {
    const store = new MemoryCacheStore({ maxEntries: 1000, maxBytes: 10_000 });
    const kilo: CachedValue = {
      kind: 'bytes',
      data: new Uint8Array(1024),
      mimeType: 'application/octet-stream',
    };
    for (let i = 0; i < 50; i++) {
      await store.put('t', `f${i}`, kilo, 60_000);
      expect(store.stats().bytes).toBeLessThanOrEqual(10_000);
    }
    expect(store.stats().entries).toBe(9);
    expect(await store.has('t', 'f49')).toBe(true);
    expect(await store.has('t', 'f0')).toBe(false);
    const huge: CachedValue = { kind: 'bytes', data: new Uint8Array(20_000), mimeType: 'x/y' };
    await expect(store.put('t', 'huge', huge, 60_000)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(store.stats().entries).toBe(9);
  });

  it('replacing an entry counts its bytes once', async () => {
    const store = new MemoryCacheStore({ maxEntries: 10, maxBytes: 10_000 });
    for (let i = 0; i < 20; i++) await store.put('t', 'same', json('x'.repeat(100)), 60_000);
    expect(store.stats()).toEqual({ entries: 1, bytes: 204 });
  });

  it('expires entries; clear removes the expired ones, or all of one scope', async () => {
    let now = 0;
    const store = new MemoryCacheStore({ maxEntries: 10, maxBytes: 10_000 }, () => now);
    await store.put('t', 'short', json(1), 1000);
    await store.put('t', 'long', json(2), 5000);
    await store.put('other', 'short', json(3), 1000);
    now = 2000;
    expect(await store.has('t', 'short')).toBe(false);
    expect(await store.clear('other', { all: false })).toBe(1);
    expect(await store.has('t', 'long')).toBe(true);
    await store.put('other', 'kept', json(4), 5000);
    expect(await store.clear('t', { all: true })).toBe(1);
    expect(await store.has('other', 'kept')).toBe(true);
  });

  it('keeps scopes apart', async () => {
    const store = new MemoryCacheStore({ maxEntries: 10, maxBytes: 10_000 });
    await store.put('acme', 'k', json('acme'), 60_000);
    expect(await store.get('globex', 'k')).toBeUndefined();
    expect(await store.remove('globex', 'k')).toBe(false);
    expect(text(await store.get('acme', 'k'))).toBe('acme');
  });
});
