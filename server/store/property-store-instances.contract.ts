/** PropertyStore contract, part 4: one object's instances paged, sorted and filtered by JSON fields. */
import { describe, expect, it, beforeEach } from 'vitest';
import { codeOf, type ContractContext } from './property-store-contract-support';

const FOLDER = 'global/app/a/object/person/v1/instance';

export function describeInstancesContract(t: ContractContext): void {
  describe('object instances page', () => {
    beforeEach(async () => {
      const people = [
        ['p1', { name: 'Zoe', age: 31, city: { name: 'Bern' }, ok: true }],
        ['p2', { name: 'adam', age: 9, city: { name: 'Basel' }, ok: false }],
        ['p3', { name: 'Émile', age: 100, 'e-mail': 'e@x.ch' }],
        ['p4', { name: 'Bea', age: 31 }],
      ] as const;
      for (const [id, value] of people)
        await t.store.save({
          key: `${FOLDER}/${id}`,
          value: JSON.stringify(value),
          type: 'application/json',
        });
      // Neither direct instances of this object nor of this folder: never listed.
      await t.store.save({ key: `${FOLDER}/p1/note`, value: '{"name":"deep"}', type: 'application/json' });
      await t.store.save({ key: `${FOLDER}x/p9`, value: '{"name":"other"}', type: 'application/json' });
      await t.store.save({ key: `${FOLDER}/bad`, value: 'not json', type: 'text/plain' });
    });
    const page = (q: object) => t.store.instancePage({ folder: FOLDER, offset: 0, limit: 100, ...q });
    const names = async (q: object) =>
      (await page(q)).rows.map((r) => (r.value === 'not json' ? 'bad' : JSON.parse(r.value!).name));

    it('lists the direct instances in key order with the total', async () => {
      const got = await page({});
      expect(got.total).toBe(5);
      expect(got.rows.map((r) => r.key.slice(FOLDER.length + 1))).toEqual(['bad', 'p1', 'p2', 'p3', 'p4']);
      expect(got.rows[1]).toMatchObject({ version: 1, created: t.now, uuid: expect.any(String) });
    });

    it('sorts numbers as numbers, ties by key, both directions', async () => {
      const filters = [{ field: 'age', op: 'contains', value: '' }];
      expect(await names({ sort: { field: 'age' }, filters })).toEqual(['adam', 'Zoe', 'Bea', 'Émile']);
      expect(await names({ sort: { field: 'age', descending: true }, filters })).toEqual([
        'Émile',
        'Bea',
        'Zoe',
        'adam',
      ]);
    });

    it('filters by nested fields, names with dashes, booleans, and searches the whole value', async () => {
      expect(await names({ filters: [{ field: 'city.name', op: 'contains', value: 'BE' }] })).toEqual([
        'Zoe',
      ]);
      expect(await names({ filters: [{ field: 'e-mail', op: 'equals', value: 'e@x.ch' }] })).toEqual([
        'Émile',
      ]);
      expect(await names({ filters: [{ field: 'ok', op: 'equals', value: 'false' }] })).toEqual(['adam']);
      expect(await names({ filters: [{ field: 'age', op: 'equals', value: '31' }] })).toEqual(['Zoe', 'Bea']);
      expect(await names({ search: 'BASEL' })).toEqual(['adam']);
    });

    it('pages with offset and limit, the total counting all matches', async () => {
      const got = await page({ sort: { field: '$key', descending: true }, offset: 1, limit: 2 });
      expect(got.total).toBe(5);
      expect(got.rows.map((r) => r.key.slice(-2))).toEqual(['p3', 'p2']);
    });

    it('refuses fields that are not dotted names and pages out of bounds', async () => {
      expect(await codeOf(page({ sort: { field: "a') OR 1=1 --" } }))).toBe('PARAM_INVALID');
      expect(await codeOf(page({ filters: [{ field: 'a..b', op: 'equals', value: 'x' }] }))).toBe(
        'PARAM_INVALID',
      );
      expect(await codeOf(page({ limit: 0 }))).toBe('PARAM_INVALID');
      expect(await codeOf(page({ limit: 501 }))).toBe('PARAM_INVALID');
      expect(await codeOf(page({ offset: -1 }))).toBe('PARAM_INVALID');
    });

    it('leaves out expired instances', async () => {
      await t.store.save({
        key: `${FOLDER}/p5`,
        value: '{"name":"gone"}',
        type: 'application/json',
        timeToLive: 1,
      });
      expect((await page({})).total).toBe(6);
      t.now += 2 * 60_000;
      expect((await page({})).total).toBe(5);
    });
  });
}
