/**
 * PropertyStore contract, part 5: tags, locks and the trash bin, through the service that every command uses
 * (the folder rules and the one write guard), on whichever store the suite runs.
 */
import { describe, expect, it } from 'vitest';
import { PipeworkError } from '../../shared/errors';
import { EventBus } from '../events/event-bus';
import { collect, codeOf, pieces, type ContractContext } from './property-store-contract-support';
import { PropertyService } from './property-service';
import { makePrincipal } from './test-fixtures';

const DAY = 86_400_000;
/** Members of group g1 may change `group/g1/...`; bob is not one. */
const alice = makePrincipal('alice', { groups: ['g1'] });
const carol = makePrincipal('carol', { groups: ['g1', 'sales'] });
const bob = makePrincipal('bob');
const system = { ...makePrincipal('sys', { groups: ['g1'] }), roles: new Set(['ROLE_USER', 'ROLE_SYSTEM']) };

async function errorOf(promise: Promise<unknown>): Promise<PipeworkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PipeworkError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

export function describeMarksContract(t: ContractContext): void {
  const service = () =>
    new PropertyService({ store: t.store, events: new EventBus(), clock: () => t.now, trashBinDays: 10 });

  describe('trash bin', () => {
    it('takes a folder with its attachments and tags into the bin, frees the keys, and restores it all', async () => {
      const s = service();
      await s.create(alice, { key: 'group/g1/app/a', value: 'A' });
      await s.create(alice, { key: 'group/g1/app/sub/b', value: { n: 1 } });
      await s.create(alice, { key: 'group/g1/other', value: 'stays' });
      await s.attachments.put(alice, 'group/g1/app/a', 'doc.bin', {
        content: new Uint8Array([1, 2, 3, 250]),
      });
      await s.attachments.write(alice, 'group/g1/app/sub/b', 'big.txt', pieces([104, 105], [33]));
      await s.marks.putTags(alice, 'group/g1/app/a', { invite: 'yes' });

      const trashed = await s.marks.trash(alice, { pattern: 'group/g1/app/**' });
      expect(trashed.sort()).toEqual(['group/g1/app/a', 'group/g1/app/sub/b']);
      // Gone from every reader's sight; the keys are free; the folder beside it untouched.
      expect(await codeOf(s.get(alice, 'group/g1/app/a'))).toBe('PROPERTY_NOT_FOUND');
      expect((await s.list(alice, 'group/g1/**')).map((p) => p.key)).toEqual(['group/g1/other']);
      expect(await s.keys(alice, '**')).toEqual(['group/g1/other']);
      expect(await s.children(alice, 'group/g1')).toEqual(['group/g1/other']);
      expect(await codeOf(s.attachments.list(alice, 'group/g1/app/a'))).toBeDefined();

      const binned = await s.marks.trashed(alice, 'group/g1/**');
      expect(binned.map((b) => [b.property.key, b.trashedBy, b.purgeAt - b.trashedAt])).toEqual([
        ['group/g1/app/a', 'alice', 10 * DAY],
        ['group/g1/app/sub/b', 'alice', 10 * DAY],
      ]);
      expect(binned[0]!.tags).toEqual({ invite: 'yes' });
      expect(await s.marks.getLock(alice, 'group/g1/app/a')).toMatchObject({ type: 'trash', ttl: 10 * DAY });

      expect(await s.marks.removeLock(alice, 'group/g1/app/a')).toMatchObject({
        removed: true,
        restored: { key: 'group/g1/app/a', value: 'A' },
      });
      await s.marks.restore(alice, 'group/g1/app/sub/b');
      expect((await s.get(alice, 'group/g1/app/sub/b')).value).toBe('{"n":1}');
      expect(await s.marks.tags(alice, 'group/g1/app/a')).toEqual({ invite: 'yes' });
      const doc = await s.attachments.open(alice, 'group/g1/app/a', 'doc.bin');
      expect(await collect(doc.content)).toEqual([1, 2, 3, 250]);
      const big = await s.attachments.open(alice, 'group/g1/app/sub/b', 'big.txt');
      expect(Buffer.from(await collect(big.content)).toString()).toBe('hi!');
      expect(await s.marks.trashed(alice, '**')).toEqual([]);
    });

    it("keeps the bin's moves in the history: a deletion by who trashed it, a new version by who restored it", async () => {
      const s = service();
      await s.create(alice, { key: 'group/g1/h', value: 'one' });
      await s.put(alice, { key: 'group/g1/h', value: 'two' });
      await s.marks.trash(carol, { key: 'group/g1/h' });
      await s.marks.restore(alice, 'group/g1/h');
      const versions = await t.store.history.list('group/g1/h');
      expect(versions.map((v) => [v.kind, v.actor])).toEqual([
        ['created', 'alice'],
        ['deleted', 'carol'],
        ['changed', 'alice'],
        ['created', 'alice'],
      ]);
      expect((await t.store.history.get('group/g1/h', versions[0]!.id))!.value).toBe('two');
    });

    it('refuses to restore onto a key another property holds now, and changes nothing', async () => {
      const s = service();
      await s.create(alice, { key: 'group/g1/k', value: 'old' });
      await s.attachments.put(alice, 'group/g1/k', 'a.txt', { content: new Uint8Array([7]) });
      await s.marks.trash(alice, { key: 'group/g1/k' });
      await s.create(alice, { key: 'group/g1/k', value: 'new' });

      const error = await errorOf(s.marks.restore(alice, 'group/g1/k'));
      expect(error.code).toBe('CONFLICT');
      expect(error.message).toContain("Cannot restore 'group/g1/k'");
      expect((await s.get(alice, 'group/g1/k')).value).toBe('new');
      expect(await s.attachments.list(alice, 'group/g1/k')).toEqual([]);
      expect((await s.marks.trashed(alice, 'group/g1/k')).map((b) => b.property.value)).toEqual(['old']);

      // Once the key is free again, the restore works, attachment and all.
      await s.delete(alice, 'group/g1/k');
      await s.marks.restore(alice, 'group/g1/k');
      expect((await s.get(alice, 'group/g1/k')).value).toBe('old');
      expect((await s.attachments.list(alice, 'group/g1/k')).map((a) => a.name)).toEqual(['a.txt']);
    });

    it('lets only who may read and change the key list or restore it; the cleanup job empties the bin', async () => {
      const s = service();
      await s.create(alice, { key: 'group/g1/k', value: 'v' });
      await s.attachments.put(alice, 'group/g1/k', 'a.txt', { content: new Uint8Array([1]) });
      await s.marks.trash(alice, { key: 'group/g1/k' }, 60_000);
      expect(await s.marks.trashed(bob, '**')).toEqual([]);
      expect(await codeOf(s.marks.restore(bob, 'group/g1/k'))).toBe('FORBIDDEN');
      expect(await codeOf(s.marks.getLock(bob, 'group/g1/k'))).toBe('FORBIDDEN');
      expect(await codeOf(s.marks.restore(alice, 'group/g1/none'))).toBe('PROPERTY_NOT_FOUND');

      t.now += 59_000;
      expect(await s.deleteExpired()).toBe(0);
      t.now += 2_000;
      expect(await s.deleteExpired()).toBe(1);
      expect(await s.marks.trashed(alice, '**')).toEqual([]);
      expect(await codeOf(s.marks.restore(alice, 'group/g1/k'))).toBe('PROPERTY_NOT_FOUND');
    });

    it('moves nothing when one of the matching properties may not be changed', async () => {
      const s = service();
      await s.create(alice, { key: 'group/g1/x/a', value: '1' });
      await s.create(alice, { key: 'group/g1/x/b', value: '2' });
      await s.marks.lock(carol, 'group/g1/x/b', { type: 'user' });
      expect(await codeOf(s.marks.trash(alice, { pattern: 'group/g1/x/**' }))).toBe('CONFLICT');
      expect(await s.keys(alice, 'group/g1/**')).toEqual(['group/g1/x/a', 'group/g1/x/b']);
      expect(await s.marks.trashed(alice, '**')).toEqual([]);
    });
  });

  describe('locks', () => {
    it('refuses every change by others with CONFLICT naming the holder, and lets the holder write', async () => {
      const s = service();
      await s.create(alice, { key: 'group/g1/doc', value: 'v1' });
      await s.create(alice, { key: 'group/g1/free', value: 'f' });
      const tag = await s.marks.lock(alice, 'group/g1/doc', { type: 'user', details: 'editing' });
      expect(tag).toMatchObject({
        type: 'user',
        uuid: 'alice',
        name: 'alice',
        ttl: null,
        details: 'editing',
      });
      expect(await s.marks.getLock(carol, 'group/g1/doc')).toEqual(tag);

      const put = await errorOf(s.put(carol, { key: 'group/g1/doc', value: 'v2' }));
      expect(put.code).toBe('CONFLICT');
      expect(put.message).toContain("only user 'alice' may change it");
      const refused = [
        () => s.create(carol, { key: 'group/g1/doc', value: 'x' }),
        () => s.delete(carol, 'group/g1/doc'),
        () => s.deleteMatching(carol, 'group/g1/**'),
        () => s.move(carol, 'group/g1/doc', 'group/g1/elsewhere'),
        () => s.move(carol, 'group/g1/free', 'group/g1/doc'),
        () => s.copy(carol, 'group/g1/free', 'group/g1/doc'),
        () => s.attachments.put(carol, 'group/g1/doc', 'a.txt', { content: new Uint8Array([1]) }),
        () => s.marks.putTags(carol, 'group/g1/doc', { t: '1' }),
        () => s.marks.trash(carol, { key: 'group/g1/doc' }),
        () => s.marks.removeLock(carol, 'group/g1/doc'),
      ];
      // One at a time, each refused on its own.
      for (const attempt of refused) expect(await codeOf(attempt())).toBe('CONFLICT');
      expect((await s.get(alice, 'group/g1/doc')).value).toBe('v1');
      expect(await s.keys(alice, 'group/g1/**')).toEqual(['group/g1/doc', 'group/g1/free']);

      await s.put(alice, { key: 'group/g1/doc', value: 'v2' });
      await s.put(system, { key: 'group/g1/doc', value: 'v3' });
      expect(await s.marks.removeLock(alice, 'group/g1/doc')).toEqual({ removed: true });
      await s.put(carol, { key: 'group/g1/doc', value: 'v4' });
      expect(await s.marks.getLock(carol, 'group/g1/doc')).toBeNull();
    });

    it('refuses a lock by a user who may not change the property (FORBIDDEN), and keeps none', async () => {
      const s = service();
      await s.create(alice, { key: 'group/g1/doc', value: 'v1' });
      const error = await errorOf(s.marks.lock(bob, 'group/g1/doc', { type: 'global' }));
      expect(error.code).toBe('FORBIDDEN');
      expect(error.message).toContain("You may not lock 'group/g1/doc'");
      expect(await s.marks.getLock(alice, 'group/g1/doc')).toBeNull();
      expect(await codeOf(s.marks.lock(alice, 'group/g1/none', {}))).toBe('PROPERTY_NOT_FOUND');
    });

    it('holds role, group, namespace and global locks to their members, and ends a lock after its ttl', async () => {
      const s = service();
      for (const k of ['role', 'group', 'global', 'timed'])
        await s.create(alice, { key: `group/g1/${k}`, value: k });
      await s.marks.lock(alice, 'group/g1/role', { type: 'role', name: 'ROLE_SUPPORT' });
      await s.marks.lock(alice, 'group/g1/group', { type: 'group', name: 'Sales', uuid: 'sales' });
      await s.marks.lock(alice, 'group/g1/global', { type: 'global' });
      await s.marks.lock(alice, 'group/g1/timed', { type: 'user', ttl: 60_000 });
      const support = { ...alice, roles: new Set(['ROLE_USER', 'ROLE_SUPPORT']) };

      expect(await codeOf(s.put(alice, { key: 'group/g1/role', value: 'x' }))).toBe('CONFLICT');
      await s.put(support, { key: 'group/g1/role', value: 'x' });
      const groupError = await errorOf(s.put(alice, { key: 'group/g1/group', value: 'x' }));
      expect(groupError.message).toContain("only members of group 'Sales' may change it");
      await s.put(carol, { key: 'group/g1/group', value: 'x' });
      expect(await codeOf(s.put(alice, { key: 'group/g1/global', value: 'x' }))).toBe('CONFLICT');
      await s.put(system, { key: 'group/g1/global', value: 'x' });

      expect(await codeOf(s.put(carol, { key: 'group/g1/timed', value: 'x' }))).toBe('CONFLICT');
      t.now += 60_000;
      await s.put(carol, { key: 'group/g1/timed', value: 'x' });
      expect(await codeOf(s.marks.lock(alice, 'group/g1/role', { type: 'role' }))).toBe('CONFLICT');
      expect(await codeOf(s.marks.lock(support, 'group/g1/role', { type: 'role' }))).toBe('PARAM_INVALID');
    });
  });

  describe('tags', () => {
    it('adds and overwrites tags, keeps them through a move, and keeps the lock tag to the lock commands', async () => {
      const s = service();
      await s.create(alice, { key: 'group/g1/a', value: '1' });
      expect(await s.marks.tags(alice, 'group/g1/a')).toEqual({});
      await s.marks.putTags(alice, 'group/g1/a', { invite: '', stage: '1' });
      expect(await s.marks.putTags(alice, 'group/g1/a', { stage: '2' })).toEqual({ invite: '', stage: '2' });
      await s.move(alice, 'group/g1/a', 'group/g1/b');
      expect(await s.marks.tags(alice, 'group/g1/b')).toEqual({ invite: '', stage: '2' });
      expect(await s.marks.tagsOfListed(['group/g1/b', 'group/g1/none'])).toEqual(
        new Map([['group/g1/b', { invite: '', stage: '2' }]]),
      );
      expect(await codeOf(s.marks.putTags(alice, 'group/g1/b', { 'property.lock': '{}' }))).toBe(
        'PARAM_INVALID',
      );
      expect(await codeOf(s.marks.putTags(bob, 'group/g1/b', { x: '' }))).toBe('FORBIDDEN');
      expect(await codeOf(s.marks.tags(bob, 'group/g1/b'))).toBe('FORBIDDEN');
      expect(await codeOf(s.marks.tags(alice, 'group/g1/a'))).toBe('PROPERTY_NOT_FOUND');
    });
  });
}
