// The Basic-auth credential cache: TTL, exact pairs, LRU eviction, invalidation.
import { describe, expect, it } from 'vitest';
import { CredentialCache } from './credential-cache';

describe('CredentialCache', () => {
  it('remembers a pair for its TTL only, and only the exact pair', () => {
    let now = 0;
    const cache = new CredentialCache({ ttlMs: 1000, maxEntries: 10 }, () => now);
    cache.set('Ann', 'pw', 'u-1');
    expect(cache.get('ann', 'pw')).toBe('u-1');
    expect(cache.get('ann', 'pw2')).toBeUndefined();
    expect(cache.get('anne', 'pw')).toBeUndefined();
    now = 1000;
    expect(cache.get('ann', 'pw')).toBeUndefined();
  });

  it('evicts the least recently used entry and forgets a user on demand', () => {
    const cache = new CredentialCache({ ttlMs: 60_000, maxEntries: 2 });
    cache.set('a', '1', 'u-a');
    cache.set('b', '1', 'u-b');
    cache.get('a', '1');
    cache.set('c', '1', 'u-c');
    expect(cache.get('b', '1')).toBeUndefined();
    expect(cache.get('a', '1')).toBe('u-a');
    cache.invalidateUser('u-a');
    expect(cache.get('a', '1')).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});
