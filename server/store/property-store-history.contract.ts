/** PropertyStore contract, part 4: every change kept as a version, in the write's transaction, within the bounds. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_HISTORY_BOUNDS } from '../../shared/property';
import { codeOf, type ContractContext } from './property-store-contract-support';

const DAY = 86_400_000;

export function describeHistoryContract(t: ContractContext): void {
  describe('history', () => {
    const kinds = async (key: string) => (await t.store.history.list(key)).map((v) => v.kind);

    it('keeps every change with who and when, newest first, and each version with its value', async () => {
      const start = t.now;
      await t.store.save({ key: 'global/p', value: 'one' }, { actor: 'u1' });
      t.now += 1000;
      await t.store.update('global/p', { value: 'two', type: 'text/yaml' }, { actor: 'u2' });
      t.now += 1000;
      await t.store.update('global/p', { timeToLive: 60 }, { actor: 'u2' });
      const versions = await t.store.history.list('global/p');
      expect(
        versions.map((v) => [v.kind, v.version, v.type, v.timeToLive, v.actor, v.at, v.valueLength]),
      ).toEqual([
        ['changed', 3, 'text/yaml', 60, 'u2', start + 2000, 3],
        ['changed', 2, 'text/yaml', null, 'u2', start + 1000, 3],
        ['created', 1, 'text/plain', null, 'u1', start, 3],
      ]);
      expect(versions[0]!.id).toBeGreaterThan(versions[1]!.id);
      const first = await t.store.history.get('global/p', versions[2]!.id);
      expect(first).toMatchObject({ key: 'global/p', kind: 'created', value: 'one', type: 'text/plain' });
      expect(await t.store.history.get('global/other', versions[2]!.id)).toBeUndefined();
      expect(await t.store.history.list('global/p', { before: versions[0]!.id, limit: 1 })).toHaveLength(1);
    });

    it('records deletions, moves (both keys) and copies, and keeps the history of a deleted key', async () => {
      await t.store.save({ key: 'global/a', value: 'x', defaultValue: { d: 1 } });
      await t.store.move('global/a', 'global/b', { actor: 'mover' });
      await t.store.copy('global/b', 'global/c');
      await t.store.delete('global/b', { actor: 'remover' });
      expect(await kinds('global/a')).toEqual(['moved-out', 'created']);
      expect(await kinds('global/b')).toEqual(['deleted', 'moved-in']);
      expect(await kinds('global/c')).toEqual(['created']);
      const [deleted, movedIn] = await t.store.history.list('global/b');
      expect(deleted).toMatchObject({ actor: 'remover', version: null, valueLength: null });
      expect(movedIn).toMatchObject({ otherKey: 'global/a', actor: 'mover', defaultValue: { d: 1 } });
      expect((await t.store.history.list('global/a'))[0]!.otherKey).toBe('global/b');
      expect((await t.store.history.get('global/b', movedIn!.id))!.value).toBe('x');
    });

    it('records nothing for a write that fails, and all or nothing for a batch', async () => {
      await t.store.save({ key: 'global/a', value: '1' });
      expect(await codeOf(t.store.update('global/a', { value: '2' }, { expectedVersion: 7 }))).toBe(
        'CONFLICT',
      );
      expect(
        await codeOf(
          t.store.saveMany(
            [
              { key: 'global/new', value: 'n' },
              { key: 'global/a', value: '3' },
            ],
            {
              ifExists: 'error',
            },
          ),
        ),
      ).toBe('PROPERTY_EXISTS');
      expect(await kinds('global/a')).toEqual(['created']);
      expect(await kinds('global/new')).toEqual([]);
    });

    it('keeps at most the bound of versions per key, and none older than the age bound', async () => {
      await t.store.save({ key: 'global/n', value: '0' });
      const writes = DEFAULT_HISTORY_BOUNDS.maxVersions + 5;
      for (let i = 1; i < writes; i++) await t.store.update('global/n', { value: String(i) });
      const kept = await t.store.history.list('global/n', { limit: 1000 });
      expect(kept).toHaveLength(DEFAULT_HISTORY_BOUNDS.maxVersions);
      expect(kept.at(-1)!.version).toBe(6);
      await t.store.save({ key: 'global/old', value: 'o' });
      t.now += (DEFAULT_HISTORY_BOUNDS.maxDays + 1) * DAY;
      await t.store.update('global/n', { value: 'late' });
      expect(await t.store.history.list('global/n')).toHaveLength(1);
      expect(await kinds('global/old')).toEqual(['created']);
      expect(await t.store.history.prune()).toBe(1);
      expect(await kinds('global/old')).toEqual([]);
      expect(await kinds('global/n')).toEqual(['changed']);
    });

    it('records an expired property as deleted by nobody', async () => {
      await t.store.save({ key: 'global/t', value: 'x', timeToLive: 1 });
      t.now += 120_000;
      await t.store.deleteExpired();
      const [gone] = await t.store.history.list('global/t');
      expect(gone).toMatchObject({ kind: 'deleted', actor: null });
    });
  });
}
