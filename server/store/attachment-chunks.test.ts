import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf, pieces } from './property-store-contract-support';
import { fixedChunks } from './attachment-chunks';

async function chunksOf(parts: number[][], size: number, maxBytes?: number): Promise<number[][]> {
  const out: number[][] = [];
  for await (const chunk of fixedChunks(pieces(...parts), size, maxBytes)) out.push([...chunk]);
  return out;
}

describe('fixedChunks', () => {
  it('re-cuts pieces of any size into chunks of exactly the size, the last one shorter', async () => {
    expect(await chunksOf([[1, 2], [3], [4, 5, 6, 7, 8, 9], []], 4)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9],
    ]);
    expect(await chunksOf([], 4)).toEqual([]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.integer({ min: 0, max: 255 }))),
        fc.integer({ min: 1, max: 9 }),
        async (parts, size) => {
          const chunks = await chunksOf(parts, size);
          expect(chunks.flat()).toEqual(parts.flat());
          expect(chunks.slice(0, -1).every((c) => c.length === size)).toBe(true);
          expect(chunks.every((c) => c.length > 0 && c.length <= size)).toBe(true);
        },
      ),
    );
  });

  it('fails with PAYLOAD_TOO_LARGE as soon as more than maxBytes arrived', async () => {
    expect(
      await chunksOf(
        [
          [1, 2],
          [3, 4],
        ],
        3,
        4,
      ),
    ).toEqual([[1, 2, 3], [4]]);
    expect(await codeOf(chunksOf([[1, 2], [3, 4], [5]], 3, 4))).toBe('PAYLOAD_TOO_LARGE');
  });
});
