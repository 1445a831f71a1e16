/**
 * The contract every PropertyStore implementation must pass (SQLite now, PostgreSQL later): call
 * `runPropertyStoreContract` from the implementation's test file with a factory for a fresh, empty store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PipeworkError } from '../../shared/errors';
import type { PropertyStore } from '../../shared/property';

export interface ContractStore {
  store: PropertyStore;
  /** Releases the store and its storage. */
  dispose(): Promise<void>;
}

/** Makes a fresh, empty store whose notion of "now" is `clock()`. */
export type ContractStoreFactory = (clock: () => number) => Promise<ContractStore>;

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof PipeworkError ? error.code : `not a PipeworkError: ${String(error)}`;
  }
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of source) out.push(...chunk);
  return out;
}

async function* pieces(...parts: number[][]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield new Uint8Array(part);
}

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
        await store.save({ key: 'global/j', value: '{"a":1}', type: 'application/json', timeToLive: 5, defaultValue: { d: [1] } });
        await store.save({ key: 'global/n', value: null, defaultValue: 'x' });
        await store.save({ key: 'global/big', value: big, defaultValue: 0 });
        expect(await store.get('global/j')).toMatchObject({ type: 'application/json', timeToLive: 5, defaultValue: { d: [1] } });
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
        expect(await codeOf(store.save({ key: 'global/t', value: 'x', timeToLive: -1 }))).toBe('PARAM_INVALID');
        expect(await codeOf(store.save({ key: 'global/t', value: 'x', timeToLive: 1.5 }))).toBe('PARAM_INVALID');
        expect(await store.get('global/t')).toBeUndefined();
      });
    });

    describe('exist strategies and updates', () => {
      it('fails, skips or updates an existing key', async () => {
        const { property: first } = await store.save({ key: 'global/a', value: '1' });
        expect(await codeOf(store.save({ key: 'global/a', value: '2' }))).toBe('PROPERTY_EXISTS');
        const skipped = await store.save({ key: 'global/a', value: '2' }, { ifExists: 'skip' });
        expect(skipped).toMatchObject({ result: 'skip', property: first, changes: [] });
        now += 1000;
        const updated = await store.save({ key: 'global/a', value: '3', type: 'text/x' }, { ifExists: 'update' });
        expect(updated.result).toBe('update');
        expect(updated.property).toMatchObject({ uuid: first.uuid, value: '3', type: 'text/x', version: 2, created: first.created, updated: now });
        expect(updated.changes).toEqual([{ kind: 'changed', origin: first, target: updated.property }]);
      });

      it('an update through save keeps what was not given, and the time to live', async () => {
        await store.save({ key: 'global/a', value: '{"a":1}', type: 'application/json', timeToLive: 5, defaultValue: 'd' });
        const { property } = await store.save({ key: 'global/a', timeToLive: 99 }, { ifExists: 'update' });
        expect(property).toMatchObject({ value: '{"a":1}', type: 'application/json', timeToLive: 5, defaultValue: 'd', version: 2 });
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
        expect(property).toMatchObject({ value: '2', type: 'text/x', defaultValue: 'd', version: 2, updated: now });
        expect(changes[0]).toMatchObject({ kind: 'changed', origin: { value: '1', version: 1 }, target: property });
        expect(await codeOf(store.update('global/a', { value: '3' }, { expectedVersion: 1 }))).toBe('CONFLICT');
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
    });

    describe('listing with wildcards', () => {
      beforeEach(async () => {
        await seed(
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
        (await store.list({ pattern, ...(scope ? { scope } : {}) })).map((p) => p.key);

      it.each([
        ['global/app/*', ['global/app/ab']],
        ['global/app/**', ['global/app', 'global/app/a/form/f1', 'global/app/a/object/o/v1/schema', 'global/app/ab', 'global/app/b/object/o/v1/schema', 'global/app/b/object/o/v2/schema']],
        ['global/app/*/object/*/v1/schema', ['global/app/a/object/o/v1/schema', 'global/app/b/object/o/v1/schema']],
        ['**/v2/schema', ['global/app/b/object/o/v2/schema']],
        ['user/*/notes', ['user/u1/notes', 'user/u10/notes']],
        ['user/u1/**', ['user/u1/deep/er/note', 'user/u1/notes']],
        ['global/app/a*', ['global/app/ab']],
        ['global/app/ab', ['global/app/ab']],
        ['*/*/doc', ['group/g1/doc']],
      ])('%s', async (pattern, expected) => {
        expect(await keysOf(pattern)).toEqual(expected);
        expect(await store.keys({ pattern })).toEqual(expected);
      });

      it('returns everything in key order for **', async () => {
        const all = await keysOf('**');
        expect(all).toHaveLength(13);
        expect([...all].sort()).toEqual(all);
      });

      it.each([['**'], ['*/**'], ['user/**'], ['user/*/*'], ['*/*/*'], ['user/u2/secret'], ['user/u2/**'], ['**/secret'], ['*/u2/*']])(
        'never leaks outside the scope through %s',
        async (pattern) => {
          const scope = ['global', 'user/u1'];
          for (const key of await keysOf(pattern, scope)) {
            expect(key.startsWith('global/') || key.startsWith('user/u1/')).toBe(true);
          }
          for (const key of await store.keys({ pattern, scope })) expect(key).not.toMatch(/^(user\/u(2|10)|group|tenant)/);
        },
      );

      it('answers within the scope', async () => {
        expect(await keysOf('user/**', ['global', 'user/u1'])).toEqual(['user/u1/deep/er/note', 'user/u1/notes']);
        expect(await keysOf('*/*/*', ['group/g1', 'user/u1'])).toEqual(['group/g1/doc', 'user/u1/notes']);
        expect(await keysOf('**', [])).toEqual([]);
      });

      it('stops at the limit', async () => {
        expect(await store.list({ pattern: '**', limit: 2 })).toHaveLength(2);
        expect(await store.keys({ pattern: 'global/**', limit: 3 })).toEqual(['global/app', 'global/app/a/form/f1', 'global/app/a/object/o/v1/schema']);
      });

      it('rejects hostile patterns with KEY_INVALID', async () => {
        for (const pattern of ['global/../**', 'global//**', '', `global/${'*'.repeat(5000)}`, 'global/\u0000']) {
          expect(await codeOf(store.list({ pattern }))).toBe('KEY_INVALID');
        }
      });

      it('lists the next level of the tree, folders ending in /', async () => {
        expect(await store.children(null)).toEqual(['global/', 'group/', 'tenant/', 'user/']);
        expect(await store.children('global/app')).toEqual(['global/app/a/', 'global/app/ab', 'global/app/b/']);
        expect(await store.children('global')).toEqual(['global/app', 'global/app/', 'global/apps/']);
        expect(await store.children('user')).toEqual(['user/u1/', 'user/u10/', 'user/u2/']);
        expect(await store.children('global/nothing')).toEqual([]);
      });

      it('shows only the path down to the reader’s folders', async () => {
        const scope = ['global', 'user/u1', 'group/g9'];
        expect(await store.children(null, scope)).toEqual(['global/', 'user/']);
        expect(await store.children('user', scope)).toEqual(['user/u1/']);
        expect(await store.children('user/u1', scope)).toEqual(['user/u1/deep/', 'user/u1/notes']);
        expect(await store.children('user/u2', scope)).toEqual([]);
        expect(await store.children('group', scope)).toEqual([]);
      });
    });

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
        expect(await codeOf(store.deleteMatching({ pattern: 'global/x/*' }, { guard: refuse }))).toBe('FORBIDDEN');
        expect(await store.keys({ pattern: 'global/**' })).toHaveLength(4);
        const changes = await store.deleteMatching({ pattern: 'global/x/*' });
        expect(changes.map((c) => c.origin?.key)).toEqual(['global/x/1', 'global/x/2']);
        expect(await store.keys({ pattern: 'global/**' })).toEqual(['global/x/keep/3', 'global/y']);
        expect(await store.deleteMatching({ pattern: 'user/**', scope: ['user/u1'] })).toEqual([]);
      });

      it('copies to a new key and over an existing one', async () => {
        const { property: source } = await store.save({ key: 'global/a', value: '1', type: 'text/x', timeToLive: 9 });
        const created = await store.copy('global/a', 'global/b');
        expect(created.property).toMatchObject({ key: 'global/b', value: '1', type: 'text/x', timeToLive: 9, version: 1 });
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
        for (let i = 0; i < 5; i++) await store.save({ key: `global/t/${i}`, value: 'x', timeToLive: 1 + (i % 2) });
        now += 60_000;
        const first = await store.deleteExpired(2);
        const second = await store.deleteExpired(10);
        expect(first).toHaveLength(2);
        expect(second).toHaveLength(1);
        expect([...first, ...second].every((c) => c.kind === 'deleted' && c.origin.timeToLive === 1)).toBe(true);
        expect(await store.keys({ pattern: 'global/t/*' })).toEqual(['global/t/1', 'global/t/3']);
        expect(await store.deleteExpired()).toEqual([]);
      });
    });

    describe('attachments', () => {
      beforeEach(async () => {
        await seed('global/doc');
      });

      it('puts, lists, reads and deletes', async () => {
        const meta = await store.attachments.put('global/doc', 'a.pdf', {
          contentType: 'application/pdf',
          content: new Uint8Array([1, 2, 3]),
        });
        expect(meta).toMatchObject({ name: 'a.pdf', contentType: 'application/pdf', length: 3, chunks: 1 });
        await store.attachments.put('global/doc', 'empty.txt', { contentType: 'text/plain' });
        expect((await store.attachments.list('global/doc')).map((a) => a.name)).toEqual(['a.pdf', 'empty.txt']);
        expect(await collect(store.attachments.read('global/doc', 'a.pdf'))).toEqual([1, 2, 3]);
        expect(await collect(store.attachments.read('global/doc', 'empty.txt'))).toEqual([]);
        expect(await store.attachments.delete('global/doc', 'a.pdf')).toBe(true);
        expect(await store.attachments.delete('global/doc', 'a.pdf')).toBe(false);
        expect(await store.attachments.get('global/doc', 'a.pdf')).toBeUndefined();
        expect(await codeOf(collect(store.attachments.read('global/doc', 'a.pdf')))).toBe('NOT_FOUND');
      });

      it('appends and replaces chunks', async () => {
        await store.attachments.putChunk('global/doc', 'c', new Uint8Array([1, 2]));
        await store.attachments.putChunk('global/doc', 'c', new Uint8Array([3]));
        let meta = await store.attachments.putChunk('global/doc', 'c', new Uint8Array([9, 9, 9]), 0);
        expect(meta).toMatchObject({ length: 4, chunks: 2 });
        expect(Array.from((await store.attachments.readChunk('global/doc', 'c', 1))!)).toEqual([3]);
        expect(await store.attachments.readChunk('global/doc', 'c', 5)).toBeUndefined();
        expect(await codeOf(store.attachments.putChunk('global/doc', 'c', new Uint8Array([1]), 7))).toBe('PARAM_INVALID');
        meta = await store.attachments.put('global/doc', 'c', { content: new Uint8Array([4]) });
        expect(meta).toMatchObject({ length: 1, chunks: 1 });
        expect(await collect(store.attachments.read('global/doc', 'c'))).toEqual([4]);
      });

      it('streams content in and replaces the old one only when complete', async () => {
        await store.attachments.put('global/doc', 's', { content: new Uint8Array([7]) });
        const meta = await store.attachments.write('global/doc', 's', pieces([1, 2], [3], [4, 5, 6]), { contentType: 'x/y' });
        expect(meta).toMatchObject({ length: 6, contentType: 'x/y' });
        expect(await collect(store.attachments.read('global/doc', 's'))).toEqual([1, 2, 3, 4, 5, 6]);
        const tooBig = store.attachments.write('global/doc', 's', pieces([1, 2, 3], [4, 5, 6]), { maxBytes: 4 });
        expect(await codeOf(tooBig)).toBe('PAYLOAD_TOO_LARGE');
        expect(await collect(store.attachments.read('global/doc', 's'))).toEqual([1, 2, 3, 4, 5, 6]);
        expect(await store.attachments.list('global/doc')).toHaveLength(1);
      });

      it('needs a live property and a valid name', async () => {
        expect(await codeOf(store.attachments.put('global/none', 'a'))).toBe('PROPERTY_NOT_FOUND');
        expect(await codeOf(store.attachments.list('global/none'))).toBe('PROPERTY_NOT_FOUND');
        expect(await codeOf(store.attachments.write('global/none', 'a', pieces([1])))).toBe('PROPERTY_NOT_FOUND');
        expect(await codeOf(store.attachments.put('global/doc', '../x'))).toBe('PARAM_INVALID');
        expect(await codeOf(store.attachments.put('global/doc', 'a\u0000'))).toBe('PARAM_INVALID');
      });

      it('go with their property', async () => {
        await store.attachments.put('global/doc', 'a', { content: new Uint8Array([1]) });
        await store.delete('global/doc');
        await seed('global/doc');
        expect(await store.attachments.list('global/doc')).toEqual([]);
      });
    });
  });
}
