/** PropertyStore contract, part 2: wildcard listings, scopes that must never leak, and tree browsing. */
import { describe, expect, it, beforeEach } from 'vitest';
import { codeOf, type ContractContext } from './property-store-contract-support';

export function describeListingContract(t: ContractContext): void {
  describe('listing with wildcards', () => {
    beforeEach(async () => {
      await t.seed(
        'global/app/a/form/f1',
        'global/app/a/object/o/v1/schema',
        'global/app/b/object/o/v1/schema',
        'global/app/b/object/o/v2/schema',
        'global/app/ab',
        'global/app',
        'global/apps/x',
        'user/u1/notes',
        'user/u1/deep/er/note',
        'user/u10/notes',
        'user/u2/secret',
        'group/g1/doc',
        'tenant/t1/app/a/form/f',
      );
    });
    const keysOf = async (pattern: string, scope?: readonly string[]) =>
      (await t.store.list({ pattern, ...(scope ? { scope } : {}) })).map((p) => p.key);

    it.each([
      ['global/app/*', ['global/app/ab']],
      [
        'global/app/**',
        [
          'global/app',
          'global/app/a/form/f1',
          'global/app/a/object/o/v1/schema',
          'global/app/ab',
          'global/app/b/object/o/v1/schema',
          'global/app/b/object/o/v2/schema',
        ],
      ],
      [
        'global/app/*/object/*/v1/schema',
        ['global/app/a/object/o/v1/schema', 'global/app/b/object/o/v1/schema'],
      ],
      ['**/v2/schema', ['global/app/b/object/o/v2/schema']],
      ['user/*/notes', ['user/u1/notes', 'user/u10/notes']],
      ['user/u1/**', ['user/u1/deep/er/note', 'user/u1/notes']],
      ['global/app/a*', ['global/app/ab']],
      ['global/app/ab', ['global/app/ab']],
      ['*/*/doc', ['group/g1/doc']],
    ])('%s', async (pattern, expected) => {
      expect(await keysOf(pattern)).toEqual(expected);
      expect(await t.store.keys({ pattern })).toEqual(expected);
    });

    it('returns everything in key order for **', async () => {
      const all = await keysOf('**');
      expect(all).toHaveLength(13);
      expect([...all].sort()).toEqual(all);
    });

    it.each([
      ['**'],
      ['*/**'],
      ['user/**'],
      ['user/*/*'],
      ['*/*/*'],
      ['user/u2/secret'],
      ['user/u2/**'],
      ['**/secret'],
      ['*/u2/*'],
    ])('never leaks outside the scope through %s', async (pattern) => {
      const scope = ['global', 'user/u1'];
      for (const key of await keysOf(pattern, scope)) {
        expect(key.startsWith('global/') || key.startsWith('user/u1/')).toBe(true);
      }
      for (const key of await t.store.keys({ pattern, scope }))
        expect(key).not.toMatch(/^(user\/u(2|10)|group|tenant)/);
    });

    it('answers within the scope', async () => {
      expect(await keysOf('user/**', ['global', 'user/u1'])).toEqual([
        'user/u1/deep/er/note',
        'user/u1/notes',
      ]);
      expect(await keysOf('*/*/*', ['group/g1', 'user/u1'])).toEqual(['group/g1/doc', 'user/u1/notes']);
      expect(await keysOf('**', [])).toEqual([]);
    });

    it('applies a query filter before the limit, and a delete by pattern leaves filtered keys alone', async () => {
      const filter = (key: string) => !key.startsWith('global/app/a/');
      expect(await t.store.keys({ pattern: 'global/app/**', filter, limit: 2 })).toEqual([
        'global/app',
        'global/app/ab',
      ]);
      const listed = await t.store.list({ pattern: 'global/app/**', filter, limit: 3 });
      expect(listed.map((p) => p.key)).toEqual([
        'global/app',
        'global/app/ab',
        'global/app/b/object/o/v1/schema',
      ]);
      const guarded: string[] = [];
      const deleted = await t.store.deleteMatching(
        { pattern: 'global/app/*/**', filter },
        { guard: (p) => void guarded.push(p.key) },
      );
      expect(deleted.map((c) => c.origin?.key)).toEqual(guarded);
      expect(guarded).toEqual([
        'global/app/ab',
        'global/app/b/object/o/v1/schema',
        'global/app/b/object/o/v2/schema',
      ]);
      expect(await t.store.keys({ pattern: 'global/app/**' })).toEqual([
        'global/app',
        'global/app/a/form/f1',
        'global/app/a/object/o/v1/schema',
      ]);
    });

    it('stops at the limit', async () => {
      expect(await t.store.list({ pattern: '**', limit: 2 })).toHaveLength(2);
      expect(await t.store.keys({ pattern: 'global/**', limit: 3 })).toEqual([
        'global/app',
        'global/app/a/form/f1',
        'global/app/a/object/o/v1/schema',
      ]);
    });

    it('rejects hostile patterns with KEY_INVALID', async () => {
      for (const pattern of [
        'global/../**',
        'global//**',
        '',
        `global/${'*'.repeat(5000)}`,
        'global/\u0000',
      ]) {
        expect(await codeOf(t.store.list({ pattern }))).toBe('KEY_INVALID');
      }
    });

    it('lists the next level of the tree, folders ending in /', async () => {
      expect(await t.store.children(null)).toEqual(['global/', 'group/', 'tenant/', 'user/']);
      expect(await t.store.children('global/app')).toEqual([
        'global/app/a/',
        'global/app/ab',
        'global/app/b/',
      ]);
      expect(await t.store.children('global')).toEqual(['global/app', 'global/app/', 'global/apps/']);
      expect(await t.store.children('user')).toEqual(['user/u1/', 'user/u10/', 'user/u2/']);
      expect(await t.store.children('global/nothing')).toEqual([]);
    });

    it('shows only the path down to the reader’s folders', async () => {
      const scope = ['global', 'user/u1', 'group/g9'];
      expect(await t.store.children(null, scope)).toEqual(['global/', 'user/']);
      expect(await t.store.children('user', scope)).toEqual(['user/u1/']);
      expect(await t.store.children('user/u1', scope)).toEqual(['user/u1/deep/', 'user/u1/notes']);
      expect(await t.store.children('user/u2', scope)).toEqual([]);
      expect(await t.store.children('group', scope)).toEqual([]);
    });
  });
}
