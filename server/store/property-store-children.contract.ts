/**
 * PropertyStore contract, part 3: a tree level page by page (`childrenPage`). The pages add up to `children`,
 * a page stops at its limit, `next` resumes where it stopped, and entries the caller does not accept neither
 * show nor count.
 */
import { describe, expect, it, beforeEach } from 'vitest';
import type { ChildrenPageQuery } from '../../shared/property';
import { allChildrenPages, type ContractContext } from './property-store-contract-support';

export function describeChildrenPageContract(t: ContractContext): void {
  /** Every page of a level, following `next`. */
  const allPages = (query: Omit<ChildrenPageQuery, 'after'>) =>
    allChildrenPages(
      (after) => t.store.childrenPage({ ...query, ...(after === undefined ? {} : { after }) }),
      query.limit,
    );
  const entriesOf = (pages: string[][]) => pages.flat();

  describe('a tree level in pages', () => {
    beforeEach(async () => {
      await t.seed(
        'global/app',
        'global/app/a/form/f1',
        'global/app/a/object/o/v1/schema',
        'global/app/a-1',
        'global/app/a.b',
        'global/app/ab',
        'global/app/b/object/o/v1/schema',
        'global/apps/x',
        'user/u1/notes',
        'user/u10/notes',
        'group/g1/doc',
      );
    });

    it.each([1, 2, 3, 100])('pages of %i add up to the whole level, in order', async (limit) => {
      for (const parent of [null, 'global', 'global/app', 'user', 'global/app/a/object']) {
        const pages = await allPages({ parent, limit });
        expect(entriesOf(pages)).toEqual(await t.store.children(parent));
        expect(pages.at(-1)!.length).toBeGreaterThan(0);
      }
    });

    it('shows a key and the folder of the same name as two entries, a folder once however full', async () => {
      expect(await t.store.childrenPage({ parent: 'global', limit: 10 })).toEqual({
        children: ['global/app', 'global/app/', 'global/apps/'],
        next: null,
      });
      expect(await t.store.childrenPage({ parent: 'global/app', limit: 2 })).toEqual({
        children: ['global/app/a-1', 'global/app/a.b'],
        next: 'global/app/a.b',
      });
    });

    it('starts after the cursor, past a folder’s whole content', async () => {
      expect(await t.store.childrenPage({ parent: 'global/app', after: 'global/app/a/', limit: 10 })).toEqual(
        {
          children: ['global/app/ab', 'global/app/b/'],
          next: null,
        },
      );
      expect(await t.store.childrenPage({ parent: 'global/app', after: 'global/app/b/', limit: 10 })).toEqual(
        {
          children: [],
          next: null,
        },
      );
    });

    it('gives no cursor when the page ends exactly at the end of the level', async () => {
      const page = await t.store.childrenPage({ parent: 'global', after: 'global/app', limit: 2 });
      expect(page).toEqual({ children: ['global/app/', 'global/apps/'], next: null });
    });

    it('passes over entries the caller does not accept, without counting them', async () => {
      const accept = (child: string) => !child.endsWith('/');
      const pages = await allPages({ parent: 'global/app', limit: 1, accept });
      expect(entriesOf(pages)).toEqual(['global/app/a-1', 'global/app/a.b', 'global/app/ab']);
      const none = await t.store.childrenPage({ parent: 'global/app', limit: 5, accept: () => false });
      expect(none).toEqual({ children: [], next: null });
    });

    it('answers an empty or missing folder with an empty last page', async () => {
      expect(await t.store.childrenPage({ parent: 'global/nothing', limit: 5 })).toEqual({
        children: [],
        next: null,
      });
    });

    it('leaves out expired properties and folders holding only expired ones', async () => {
      await t.store.save({ key: 'global/app/c', value: 'x', timeToLive: 1 });
      await t.store.save({ key: 'global/app/d/e', value: 'x', timeToLive: 1 });
      expect(entriesOf(await allPages({ parent: 'global/app', limit: 2 }))).toContain('global/app/d/');
      t.now += 2 * 60_000;
      const entries = entriesOf(await allPages({ parent: 'global/app', limit: 2 }));
      expect(entries).toEqual(await t.store.children('global/app'));
      expect(entries).not.toContain('global/app/c');
      expect(entries).not.toContain('global/app/d/');
    });
  });

  describe('a large tree level in pages', () => {
    const SIZE = 1_200;
    const name = (i: number) => `global/big/item${String(i).padStart(5, '0')}`;

    beforeEach(async () => {
      const inputs = Array.from({ length: SIZE }, (_, i) => ({ key: name(i), value: 'v' }));
      // A sub-folder full of keys sorts in the middle and is one entry.
      for (let i = 0; i < 300; i++) inputs.push({ key: `global/big/item00600x/${i}`, value: 'v' });
      await t.store.saveMany(inputs);
    });

    it('walks the level in pages larger and smaller than the level', async () => {
      const whole = await t.store.children('global/big');
      expect(whole).toHaveLength(SIZE + 1);
      expect(whole[601]).toBe('global/big/item00600x/');
      for (const limit of [7, 700, 1_000]) {
        expect(entriesOf(await allPages({ parent: 'global/big', limit }))).toEqual(whole);
      }
      const first = await t.store.childrenPage({ parent: 'global/big', limit: 3 });
      expect(first).toEqual({ children: [name(0), name(1), name(2)], next: name(2) });
    });

    it('fills a page from far along the level when few entries are accepted', async () => {
      const accept = (child: string) => child.endsWith('0') || child.endsWith('/');
      const page = await t.store.childrenPage({ parent: 'global/big', limit: 100, accept });
      expect(page.children).toHaveLength(100);
      expect(page.children.at(-1)).toBe(name(980));
      expect(page.children).toContain('global/big/item00600x/');
      const rest = await t.store.childrenPage({
        parent: 'global/big',
        after: page.next!,
        limit: 100,
        accept,
      });
      const tail = Array.from({ length: 21 }, (_, i) => name(990 + i * 10));
      expect(rest).toEqual({ children: tail, next: null });
    });
  });
}
