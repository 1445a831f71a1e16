/**
 * The contract every PropertyStore implementation must pass (SQLite and PostgreSQL): call
 * `runPropertyStoreContract` from the implementation's test file with a factory for a fresh, empty store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PipeworkError } from '../../shared/errors';
import type { PropertyStore } from '../../shared/property';
import { describeAdoptionContract } from './property-store-adoption.contract';
import { describeAttachmentContract } from './property-store-attachments.contract';
import { describeChildrenPageContract } from './property-store-children.contract';
import { codeOf, collect, type ContractContext } from './property-store-contract-support';
import { describeHistoryContract } from './property-store-history.contract';
import { describeInstancesContract } from './property-store-instances.contract';
import { describeListingContract } from './property-store-listing.contract';
import { describeMarksContract } from './property-store-marks.contract';

export interface ContractStore {
  store: PropertyStore;
  /** Releases the store and its storage. */
  dispose(): Promise<void>;
}

/** Makes a fresh, empty store whose notion of "now" is `clock()`. */
export type ContractStoreFactory = (clock: () => number) => Promise<ContractStore>;

export function runPropertyStoreContract(name: string, factory: ContractStoreFactory): void {
  describe(`PropertyStore contract: ${name}`, () => {
    let now = 1_700_000_000_000;
    let subject: ContractStore;
    let store: PropertyStore;
    const seed = async (...keys: string[]) => {
      for (const key of keys) await store.save({ key, value: `v:${key}` });
    };

    beforeEach(async () => {
      now = 1_700_000_000_000;
      subject = await factory(() => now);
      store = subject.store;
    });
    afterEach(async () => {
      await subject.dispose();
    });
    // The parts in other files read the current test's store and clock through this.
    const context: ContractContext = {
      get store() {
        return store;
      },
      get now() {
        return now;
      },
      set now(value: number) {
        now = value;
      },
      seed,
    };

    describe('create and read', () => {
      it('creates with uuid, version 1, defaults, and reads it back', async () => {
        const { result, property, changes } = await store.save({ key: '/global/a', value: 'x' });
        expect(result).toBe('create');
        expect(property).toEqual({
          uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
          key: 'global/a',
          value: 'x',
          type: 'text/plain',
          created: now,
          updated: null,
          timeToLive: null,
          defaultValue: null,
          version: 1,
        });
        expect(changes).toEqual([{ kind: 'created', origin: null, target: property }]);
        expect(await store.get('global/a')).toEqual(property);
        expect(await store.get('/global/a')).toEqual(property);
        expect(await store.get('global/b')).toBeUndefined();
      });

      it('keeps type, time to live, default values of any JSON shape, null and large values', async () => {
        const big = 'ä€😀'.repeat(100_000);
        await store.save({
          key: 'global/j',
          value: '{"a":1}',
          type: 'application/json',
          timeToLive: 5,
          defaultValue: { d: [1] },
        });
        await store.save({ key: 'global/n', value: null, defaultValue: 'x' });
        await store.save({ key: 'global/big', value: big, defaultValue: 0 });
        expect(await store.get('global/j')).toMatchObject({
          type: 'application/json',
          timeToLive: 5,
          defaultValue: { d: [1] },
        });
        expect(await store.get('global/n')).toMatchObject({ value: null, defaultValue: 'x' });
        expect(await store.get('global/big')).toMatchObject({ value: big, defaultValue: 0 });
      });

      it.each([
        ['dot-dot', 'global/../user/x'],
        ['encoded dot-dot', 'global/%2e%2e/x'],
        ['empty segment', 'global//x'],
        ['NUL', 'global/a\u0000'],
        ['5,000 characters', `global/${'a'.repeat(5000)}`],
        ['unknown root', 'etc/passwd'],
      ])('rejects a key with %s (KEY_INVALID) on every operation', async (_n, key) => {
        expect(await codeOf(store.save({ key, value: 'x' }))).toBe('KEY_INVALID');
        expect(await codeOf(store.get(key))).toBe('KEY_INVALID');
        expect(await codeOf(store.update(key, { value: 'y' }))).toBe('KEY_INVALID');
        expect(await codeOf(store.delete(key))).toBe('KEY_INVALID');
        await seed('global/ok');
        expect(await codeOf(store.copy('global/ok', key))).toBe('KEY_INVALID');
        expect(await codeOf(store.move('global/ok', key))).toBe('KEY_INVALID');
      });

      it('rejects a negative or fractional time to live', async () => {
        expect(await codeOf(store.save({ key: 'global/t', value: 'x', timeToLive: -1 }))).toBe(
          'PARAM_INVALID',
        );
        expect(await codeOf(store.save({ key: 'global/t', value: 'x', timeToLive: 1.5 }))).toBe(
          'PARAM_INVALID',
        );
        expect(await store.get('global/t')).toBeUndefined();
      });
    });

    describe('exist strategies and updates', () => {
      it('saveMany writes all in one transaction, or nothing when one fails', async () => {
        await store.save({ key: 'global/many/taken', value: 't' });
        const attempt = store.saveMany([{ key: 'global/many/a', value: 'a' }, { key: 'global/many/taken' }]);
        expect(await codeOf(attempt)).toBe('PROPERTY_EXISTS');
        expect(await store.get('global/many/a')).toBeUndefined();
        const results = await store.saveMany(
          [
            { key: 'global/many/a', value: 'a' },
            { key: 'global/many/taken', value: 'u' },
          ],
          { ifExists: 'update' },
        );
        expect(results.map((r) => r.result)).toEqual(['create', 'update']);
        expect((await store.get('global/many/taken'))?.value).toBe('u');
      });
      it('fails, skips or updates an existing key', async () => {
        const { property: first } = await store.save({ key: 'global/a', value: '1' });
        expect(await codeOf(store.save({ key: 'global/a', value: '2' }))).toBe('PROPERTY_EXISTS');
        const skipped = await store.save({ key: 'global/a', value: '2' }, { ifExists: 'skip' });
        expect(skipped).toMatchObject({ result: 'skip', property: first, changes: [] });
        now += 1000;
        const updated = await store.save(
          { key: 'global/a', value: '3', type: 'text/x' },
          { ifExists: 'update' },
        );
        expect(updated.result).toBe('update');
        expect(updated.property).toMatchObject({
          uuid: first.uuid,
          value: '3',
          type: 'text/x',
          version: 2,
          created: first.created,
          updated: now,
        });
        expect(updated.changes).toEqual([{ kind: 'changed', origin: first, target: updated.property }]);
      });

      it('an update through save keeps what was not given, and the time to live', async () => {
        await store.save({
          key: 'global/a',
          value: '{"a":1}',
          type: 'application/json',
          timeToLive: 5,
          defaultValue: 'd',
        });
        const { property } = await store.save({ key: 'global/a', timeToLive: 99 }, { ifExists: 'update' });
        expect(property).toMatchObject({
          value: '{"a":1}',
          type: 'application/json',
          timeToLive: 5,
          defaultValue: 'd',
          version: 2,
        });
        const created = await store.save({ key: 'global/b' });
        expect(created.property).toMatchObject({ value: null, type: 'text/plain' });
      });

      it('changes the time to live through update, counted from creation', async () => {
        await store.save({ key: 'global/a', value: '1' });
        now += 90_000;
        await store.update('global/a', { timeToLive: 1 });
        expect(await store.get('global/a')).toBeUndefined();
      });

      it('only one of many concurrent creates of a key wins', async () => {
        const results = await Promise.allSettled(
          Array.from({ length: 8 }, (_, i) => store.save({ key: 'global/race', value: String(i) })),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) {
          if (r.status === 'rejected') expect((r.reason as PipeworkError).code).toBe('PROPERTY_EXISTS');
        }
      });

      it('updates given fields, bumps the version, and compares and swaps', async () => {
        await store.save({ key: 'global/a', value: '1', type: 'text/x', defaultValue: 'd' });
        now += 5;
        const { property, changes } = await store.update('global/a', { value: '2' }, { expectedVersion: 1 });
        expect(property).toMatchObject({
          value: '2',
          type: 'text/x',
          defaultValue: 'd',
          version: 2,
          updated: now,
        });
        expect(changes[0]).toMatchObject({
          kind: 'changed',
          origin: { value: '1', version: 1 },
          target: property,
        });
        expect(await codeOf(store.update('global/a', { value: '3' }, { expectedVersion: 1 }))).toBe(
          'CONFLICT',
        );
        expect((await store.get('global/a'))!.value).toBe('2');
        expect(await codeOf(store.update('global/missing', { value: '3' }))).toBe('PROPERTY_NOT_FOUND');
        await store.update('global/a', { value: null });
        expect((await store.get('global/a'))!).toMatchObject({ value: null, version: 3 });
      });

      it('records the author of the last write', async () => {
        await store.save({ key: 'global/a', value: '1' }, { actor: 'u1' });
        expect(await store.authorOf('global/a')).toBe('u1');
        await store.update('global/a', { value: '2' }, { actor: 'u2' });
        expect(await store.authorOf('global/a')).toBe('u2');
        expect(await store.authorOf('global/none')).toBeUndefined();
      });

      it('makes whoever writes last the author: a move, a copy, a change of type or default value alone', async () => {
        await store.save({ key: 'global/a', value: 'script' }, { actor: 'writer' });
        await store.move('global/a', 'global/b', { actor: 'mover' });
        expect(await store.authorOf('global/b')).toBe('mover');
        await store.save({ key: 'global/b', type: 'text/x' }, { ifExists: 'update', actor: 'retyper' });
        expect(await store.authorOf('global/b')).toBe('retyper');
        await store.update('global/b', { defaultValue: 1 }, { actor: 'other' });
        expect(await store.authorOf('global/b')).toBe('other');
        await store.update('global/b', { value: 'new' }, { actor: 'rewriter' });
        expect(await store.authorOf('global/b')).toBe('rewriter');
        await store.copy('global/b', 'global/c', { actor: 'copier' });
        expect(await store.authorOf('global/c')).toBe('copier');
        expect(await store.authorOf('global/b')).toBe('rewriter');
        // Copied onto an existing property, with the same value: still the copier's now.
        await store.copy('global/c', 'global/b', { actor: 'copier' });
        expect(await store.authorOf('global/b')).toBe('copier');
        // A system write (no actor) leaves no author whose rights the property could carry.
        await store.move('global/b', 'global/d', {});
        expect(await store.authorOf('global/d')).toBeNull();
      });
    });

    describeListingContract(context);
    describeChildrenPageContract(context);
    describeInstancesContract(context);

    describe('delete, copy and move', () => {
      it('deletes one property and reports it once', async () => {
        const { property } = await store.save({ key: 'global/a', value: '1' });
        expect(await store.delete('global/a')).toEqual({ kind: 'deleted', origin: property, target: null });
        expect(await store.delete('global/a')).toBeUndefined();
        expect(await store.get('global/a')).toBeUndefined();
      });

      it('deletes by pattern, all or nothing', async () => {
        await seed('global/x/1', 'global/x/2', 'global/x/keep/3', 'global/y');
        const refuse = (p: { key: string }) => {
          if (p.key.endsWith('/2')) throw new PipeworkError('FORBIDDEN', 'no');
        };
        expect(await codeOf(store.deleteMatching({ pattern: 'global/x/*' }, { guard: refuse }))).toBe(
          'FORBIDDEN',
        );
        expect(await store.keys({ pattern: 'global/**' })).toHaveLength(4);
        const changes = await store.deleteMatching({ pattern: 'global/x/*' });
        expect(changes.map((c) => c.origin?.key)).toEqual(['global/x/1', 'global/x/2']);
        expect(await store.keys({ pattern: 'global/**' })).toEqual(['global/x/keep/3', 'global/y']);
        expect(await store.deleteMatching({ pattern: 'user/**', scope: ['user/u1'] })).toEqual([]);
      });

      it('copies to a new key and over an existing one', async () => {
        const { property: source } = await store.save({
          key: 'global/a',
          value: '1',
          type: 'text/x',
          timeToLive: 9,
        });
        const created = await store.copy('global/a', 'global/b');
        expect(created.property).toMatchObject({
          key: 'global/b',
          value: '1',
          type: 'text/x',
          timeToLive: 9,
          version: 1,
        });
        expect(created.property.uuid).not.toBe(source.uuid);
        expect(created.changes.map((c) => c.kind)).toEqual(['created']);
        await store.update('global/a', { value: '2' });
        const over = await store.copy('global/a', 'global/b');
        expect(over.property).toMatchObject({ uuid: created.property.uuid, value: '2', version: 2 });
        expect(over.changes.map((c) => c.kind)).toEqual(['changed']);
        expect(await codeOf(store.copy('global/none', 'global/c'))).toBe('PROPERTY_NOT_FOUND');
        expect(await codeOf(store.copy('global/a', 'global/a'))).toBe('PARAM_INVALID');
      });

      it('moves with uuid and attachments, never over an existing key', async () => {
        const { property: source } = await store.save({ key: 'global/a', value: '1' });
        await store.attachments.put('global/a', 'f.bin', { content: new Uint8Array([1, 2]) });
        await seed('global/taken');
        expect(await codeOf(store.move('global/a', 'global/taken'))).toBe('PROPERTY_EXISTS');
        expect(await codeOf(store.move('global/none', 'global/z'))).toBe('PROPERTY_NOT_FOUND');
        const moved = await store.move('global/a', 'global/b');
        expect(moved.property).toMatchObject({ uuid: source.uuid, key: 'global/b', value: '1', version: 2 });
        expect(moved.changes.map((c) => [c.kind, c.origin?.key ?? c.target?.key])).toEqual([
          ['deleted', 'global/a'],
          ['created', 'global/b'],
        ]);
        expect(await store.get('global/a')).toBeUndefined();
        expect(await collect(store.attachments.read('global/b', 'f.bin'))).toEqual([1, 2]);
      });
    });

    describe('time to live', () => {
      it('never returns an expired property and lets a new one take its key', async () => {
        await store.save({ key: 'global/t/a', value: '1', timeToLive: 1 });
        await store.save({ key: 'global/t/b', value: '1', timeToLive: 0 });
        now += 60_000;
        expect(await store.get('global/t/a')).toBeUndefined();
        expect(await store.keys({ pattern: 'global/t/*' })).toEqual(['global/t/b']);
        expect(await store.children('global/t')).toEqual(['global/t/b']);
        expect(await codeOf(store.update('global/t/a', { value: '2' }))).toBe('PROPERTY_NOT_FOUND');
        expect(await store.authorOf('global/t/a')).toBeUndefined();
        const again = await store.save({ key: 'global/t/a', value: 'new' });
        expect(again.changes.map((c) => c.kind)).toEqual(['deleted', 'created']);
        expect(again.property).toMatchObject({ value: 'new', version: 1, timeToLive: null });
      });

      it('deletes expired properties in batches and reports them', async () => {
        for (let i = 0; i < 5; i++)
          await store.save({ key: `global/t/${i}`, value: 'x', timeToLive: 1 + (i % 2) });
        now += 60_000;
        const first = await store.deleteExpired(2);
        const second = await store.deleteExpired(10);
        expect(first).toHaveLength(2);
        expect(second).toHaveLength(1);
        expect([...first, ...second].every((c) => c.kind === 'deleted' && c.origin.timeToLive === 1)).toBe(
          true,
        );
        expect(await store.keys({ pattern: 'global/t/*' })).toEqual(['global/t/1', 'global/t/3']);
        expect(await store.deleteExpired()).toEqual([]);
      });
    });

    describeAttachmentContract(context);
    describeAdoptionContract(context);
    describeHistoryContract(context);
    describeMarksContract(context);
  });
}
