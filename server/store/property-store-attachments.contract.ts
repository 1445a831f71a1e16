/** PropertyStore contract, part 3: attachments, chunked and streamed. */
import { beforeEach, describe, expect, it } from 'vitest';
import { codeOf, collect, pieces, type ContractContext } from './property-store-contract-support';

export function describeAttachmentContract(t: ContractContext): void {
  describe('attachments', () => {
    beforeEach(async () => {
      await t.seed('global/doc');
    });

    it('puts, lists, reads and deletes', async () => {
      const meta = await t.store.attachments.put('global/doc', 'a.pdf', {
        contentType: 'application/pdf',
        content: new Uint8Array([1, 2, 3]),
      });
      expect(meta).toMatchObject({ name: 'a.pdf', contentType: 'application/pdf', length: 3, chunks: 1 });
      await t.store.attachments.put('global/doc', 'empty.txt', { contentType: 'text/plain' });
      expect((await t.store.attachments.list('global/doc')).map((a) => a.name)).toEqual([
        'a.pdf',
        'empty.txt',
      ]);
      expect(await collect(t.store.attachments.read('global/doc', 'a.pdf'))).toEqual([1, 2, 3]);
      expect(await collect(t.store.attachments.read('global/doc', 'empty.txt'))).toEqual([]);
      expect(await t.store.attachments.delete('global/doc', 'a.pdf')).toBe(true);
      expect(await t.store.attachments.delete('global/doc', 'a.pdf')).toBe(false);
      expect(await t.store.attachments.get('global/doc', 'a.pdf')).toBeUndefined();
      expect(await codeOf(collect(t.store.attachments.read('global/doc', 'a.pdf')))).toBe('NOT_FOUND');
    });

    it('appends and replaces chunks', async () => {
      await t.store.attachments.putChunk('global/doc', 'c', new Uint8Array([1, 2]));
      await t.store.attachments.putChunk('global/doc', 'c', new Uint8Array([3]));
      let meta = await t.store.attachments.putChunk('global/doc', 'c', new Uint8Array([9, 9, 9]), 0);
      expect(meta).toMatchObject({ length: 4, chunks: 2 });
      expect(Array.from((await t.store.attachments.readChunk('global/doc', 'c', 1))!)).toEqual([3]);
      expect(await t.store.attachments.readChunk('global/doc', 'c', 5)).toBeUndefined();
      expect(await codeOf(t.store.attachments.putChunk('global/doc', 'c', new Uint8Array([1]), 7))).toBe(
        'PARAM_INVALID',
      );
      meta = await t.store.attachments.put('global/doc', 'c', { content: new Uint8Array([4]) });
      expect(meta).toMatchObject({ length: 1, chunks: 1 });
      expect(await collect(t.store.attachments.read('global/doc', 'c'))).toEqual([4]);
    });

    it('streams content in and replaces the old one only when complete', async () => {
      await t.store.attachments.put('global/doc', 's', { content: new Uint8Array([7]) });
      const meta = await t.store.attachments.write('global/doc', 's', pieces([1, 2], [3], [4, 5, 6]), {
        contentType: 'x/y',
      });
      expect(meta).toMatchObject({ length: 6, contentType: 'x/y' });
      expect(await collect(t.store.attachments.read('global/doc', 's'))).toEqual([1, 2, 3, 4, 5, 6]);
      const tooBig = t.store.attachments.write('global/doc', 's', pieces([1, 2, 3], [4, 5, 6]), {
        maxBytes: 4,
      });
      expect(await codeOf(tooBig)).toBe('PAYLOAD_TOO_LARGE');
      expect(await collect(t.store.attachments.read('global/doc', 's'))).toEqual([1, 2, 3, 4, 5, 6]);
      expect(await t.store.attachments.list('global/doc')).toHaveLength(1);
    });

    it.each([
      [
        'replaced by put',
        (s: ContractContext['store']) =>
          s.attachments.put('global/doc', 'r', { content: new Uint8Array([8, 8]) }),
      ],
      [
        'a chunk replaced',
        (s: ContractContext['store']) => s.attachments.putChunk('global/doc', 'r', new Uint8Array([8]), 1),
      ],
      [
        'replaced by a streamed write',
        (s: ContractContext['store']) => s.attachments.write('global/doc', 'r', pieces([8], [8])),
      ],
      ['deleted', (s: ContractContext['store']) => s.attachments.delete('global/doc', 'r')],
    ])('a reader never mixes old and new content: CONFLICT when it is %s mid-read', async (_name, change) => {
      await t.store.attachments.putChunk('global/doc', 'r', new Uint8Array([1]));
      await t.store.attachments.putChunk('global/doc', 'r', new Uint8Array([2]));
      const reader = t.store.attachments.read('global/doc', 'r')[Symbol.asyncIterator]();
      expect(Array.from((await reader.next()).value as Uint8Array)).toEqual([1]);
      await change(t.store);
      expect(await codeOf(reader.next())).toBe('CONFLICT');
    });

    it('needs a live property and a valid name', async () => {
      expect(await codeOf(t.store.attachments.put('global/none', 'a'))).toBe('PROPERTY_NOT_FOUND');
      expect(await codeOf(t.store.attachments.list('global/none'))).toBe('PROPERTY_NOT_FOUND');
      expect(await codeOf(t.store.attachments.write('global/none', 'a', pieces([1])))).toBe(
        'PROPERTY_NOT_FOUND',
      );
      expect(await codeOf(t.store.attachments.put('global/doc', '../x'))).toBe('PARAM_INVALID');
      expect(await codeOf(t.store.attachments.put('global/doc', 'a\u0000'))).toBe('PARAM_INVALID');
    });

    it('go with their property', async () => {
      await t.store.attachments.put('global/doc', 'a', { content: new Uint8Array([1]) });
      await t.store.delete('global/doc');
      await t.seed('global/doc');
      expect(await t.store.attachments.list('global/doc')).toEqual([]);
    });
  });
}
