/**
 * The contract every CacheStore implementation passes (in memory, PostgreSQL): call `runCacheStoreContract`
 * from the implementation's test file with a factory for a fresh, empty cache with the given bounds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CacheConfig } from './cache-config';
import type { CachedValue, CacheStore } from './cache-store';

export interface ContractCache {
  store: CacheStore;
  /** Entries and bytes held now, over all scopes. */
  stats(): Promise<{ entries: number; bytes: number }>;
  /** Releases the cache and its storage. */
  dispose(): Promise<void>;
}

/** Makes a fresh, empty cache with these bounds, whose notion of "now" is `clock()`. */
export type ContractCacheFactory = (bounds: CacheConfig, clock: () => number) => Promise<ContractCache>;

export const json = (value: unknown): CachedValue => ({ kind: 'json', text: JSON.stringify(value) });
export const parsed = (v: CachedValue | undefined) => (v?.kind === 'json' ? JSON.parse(v.text) : v);

export function runCacheStoreContract(name: string, factory: ContractCacheFactory): void {
  describe(`CacheStore contract: ${name}`, () => {
    let subject: ContractCache | undefined;
    let now = 1_700_000_000_000;
    const open = async (bounds: CacheConfig) => {
      now = 1_700_000_000_000;
      subject = await factory(bounds, () => now);
      return subject;
    };
    afterEach(async () => {
      await subject?.dispose();
      subject = undefined;
    });

    it('filled past its entry bound, drops the least recently used entries first', async () => {
      const { store, stats } = await open({ maxEntries: 3, maxBytes: 1_000_000 });
      for (const k of ['a', 'b', 'c']) await store.put('t', k, json(k), 60_000);
      await store.get('t', 'a'); // a is now the most recently used
      await store.put('t', 'd', json('d'), 60_000);
      expect(await store.has('t', 'b')).toBe(false);
      expect(parsed(await store.get('t', 'a'))).toBe('a');
      for (let i = 0; i < 100; i++) await store.put('t', `k${i}`, json(i), 60_000);
      expect((await stats()).entries).toBe(3);
      expect(parsed(await store.get('t', 'k99'))).toBe(99);
    });

    it('filled past its byte bound, keeps the bytes under it; a value alone over it is refused', async () => {
      const { store, stats } = await open({ maxEntries: 1000, maxBytes: 10_000 });
      const kilo: CachedValue = {
        kind: 'bytes',
        data: new Uint8Array(1024),
        mimeType: 'application/octet-stream',
      };
      for (let i = 0; i < 50; i++) {
        await store.put('t', `f${i}`, kilo, 60_000);
        expect((await stats()).bytes).toBeLessThanOrEqual(10_000);
      }
      expect((await stats()).entries).toBe(9);
      expect(await store.has('t', 'f49')).toBe(true);
      expect(await store.has('t', 'f0')).toBe(false);
      const huge: CachedValue = { kind: 'bytes', data: new Uint8Array(20_000), mimeType: 'x/y' };
      await expect(store.put('t', 'huge', huge, 60_000)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect((await stats()).entries).toBe(9);
    });

    it('replacing an entry counts its bytes once', async () => {
      const { store, stats } = await open({ maxEntries: 10, maxBytes: 10_000 });
      for (let i = 0; i < 20; i++) await store.put('t', 'same', json('x'.repeat(100)), 60_000);
      expect(await stats()).toEqual({ entries: 1, bytes: 204 });
    });

    it('keeps bytes, their mime type and name as they were put', async () => {
      const { store } = await open({ maxEntries: 10, maxBytes: 10_000 });
      const data = Uint8Array.from([0, 1, 2, 250, 255]);
      await store.put('t', 'named', { kind: 'bytes', data, mimeType: 'image/png', name: 'dot.png' }, 60_000);
      await store.put('t', 'nameless', { kind: 'bytes', data, mimeType: 'x/y' }, 60_000);
      const named = await store.get('t', 'named');
      expect(named).toMatchObject({ kind: 'bytes', mimeType: 'image/png', name: 'dot.png' });
      expect([...(named as { data: Uint8Array }).data]).toEqual([0, 1, 2, 250, 255]);
      const nameless = await store.get('t', 'nameless');
      expect(nameless).toMatchObject({ kind: 'bytes', mimeType: 'x/y' });
      expect((nameless as { name?: string }).name).toBeUndefined();
      expect(await store.get('t', 'absent')).toBeUndefined();
    });

    it('expires entries; clear removes the expired ones, or all of one scope', async () => {
      const { store } = await open({ maxEntries: 10, maxBytes: 10_000 });
      await store.put('t', 'short', json(1), 1000);
      await store.put('t', 'long', json(2), 5000);
      await store.put('other', 'short', json(3), 1000);
      now += 2000;
      expect(await store.has('t', 'short')).toBe(false);
      expect(await store.get('t', 'short')).toBeUndefined();
      expect(await store.clear('other', { all: false })).toBe(1);
      expect(await store.has('t', 'long')).toBe(true);
      await store.put('other', 'kept', json(4), 5000);
      expect(await store.clear('t', { all: true })).toBe(1);
      expect(await store.has('other', 'kept')).toBe(true);
    });

    it('keeps scopes apart', async () => {
      const { store } = await open({ maxEntries: 10, maxBytes: 10_000 });
      await store.put('acme', 'k', json('acme'), 60_000);
      expect(await store.get('globex', 'k')).toBeUndefined();
      expect(await store.remove('globex', 'k')).toBe(false);
      expect(parsed(await store.get('acme', 'k'))).toBe('acme');
      expect(await store.remove('acme', 'k')).toBe(true);
      expect(await store.has('acme', 'k')).toBe(false);
    });
  });
}
