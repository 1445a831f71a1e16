/**
 * PropertyStore contract: staged attachments moved onto a property in its save's transaction
 * (`SaveOptions.adopt`, what a form's large files use): all together, or nothing.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentAdoption } from '../../shared/property';
import { codeOf, collect, type ContractContext } from './property-store-contract-support';

const STAGING = 'user/u1/staging/up1';

function adoption(over: Partial<AttachmentAdoption> = {}): AttachmentAdoption {
  return { from: STAGING, name: 'file', as: 'scan.pdf', length: 5, contentType: 'application/pdf', ...over };
}

export function describeAdoptionContract(t: ContractContext): void {
  describe('adopting staged attachments on save', () => {
    beforeEach(async () => {
      await t.seed(STAGING);
      await t.store.attachments.putChunk(STAGING, 'file', new Uint8Array([1, 2, 3]));
      await t.store.attachments.putChunk(STAGING, 'file', new Uint8Array([4, 5]));
    });

    it('moves the attachment onto the created property and deletes the staging property, in one write', async () => {
      const saved = await t.store.save({ key: 'global/doc', value: 'x' }, { adopt: [adoption()] });
      expect(saved.result).toBe('create');
      expect(saved.changes.map((c) => [c.kind, (c.target ?? c.origin)!.key])).toEqual([
        ['created', 'global/doc'],
        ['deleted', STAGING],
      ]);
      expect(await t.store.attachments.get('global/doc', 'scan.pdf')).toMatchObject({
        contentType: 'application/pdf',
        length: 5,
        chunks: 2,
      });
      expect(await collect(t.store.attachments.read('global/doc', 'scan.pdf'))).toEqual([1, 2, 3, 4, 5]);
      expect(await t.store.get(STAGING)).toBeUndefined();
    });

    it('replaces an attachment of the same name when updating', async () => {
      await t.seed('global/doc');
      await t.store.attachments.put('global/doc', 'scan.pdf', { content: new Uint8Array([9]) });
      const saved = await t.store.save(
        { key: 'global/doc', value: 'y' },
        { ifExists: 'update', adopt: [adoption()] },
      );
      expect(saved.result).toBe('update');
      expect(await collect(t.store.attachments.read('global/doc', 'scan.pdf'))).toEqual([1, 2, 3, 4, 5]);
      expect(await t.store.attachments.list('global/doc')).toHaveLength(1);
    });

    it.each([
      ['a missing staged attachment', adoption({ name: 'other' }), 'NOT_FOUND'],
      ['a missing staging property', adoption({ from: 'user/u1/staging/none' }), 'NOT_FOUND'],
      ['a length that changed', adoption({ length: 4 }), 'CONFLICT'],
      ['an invalid name', adoption({ as: '../x' }), 'PARAM_INVALID'],
    ])('writes nothing for %s', async (_what, bad, code) => {
      expect(await codeOf(t.store.save({ key: 'global/doc', value: 'x' }, { adopt: [bad] }))).toBe(code);
      expect(await t.store.get('global/doc')).toBeUndefined();
      expect(await t.store.get(STAGING)).toBeDefined();
      expect(await collect(t.store.attachments.read(STAGING, 'file'))).toEqual([1, 2, 3, 4, 5]);
    });

    it('does nothing on skip', async () => {
      await t.seed('global/doc');
      const saved = await t.store.save(
        { key: 'global/doc', value: 'y' },
        { ifExists: 'skip', adopt: [adoption()] },
      );
      expect(saved.result).toBe('skip');
      expect(await t.store.attachments.list('global/doc')).toEqual([]);
      expect(await t.store.get(STAGING)).toBeDefined();
    });

    it('refuses an expired staging property', async () => {
      await t.store.save({ key: 'user/u1/staging/old', value: 'v', timeToLive: 1 });
      await t.store.attachments.put('user/u1/staging/old', 'file', { content: new Uint8Array([1]) });
      t.now += 2 * 60_000;
      const late = adoption({ from: 'user/u1/staging/old', length: 1 });
      expect(await codeOf(t.store.save({ key: 'global/doc', value: 'x' }, { adopt: [late] }))).toBe(
        'NOT_FOUND',
      );
      expect(await t.store.get('global/doc')).toBeUndefined();
    });
  });
}
