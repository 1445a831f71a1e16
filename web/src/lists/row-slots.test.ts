import { describe, expect, it } from 'vitest';
import { RowSlots } from './row-slots';

const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

describe('RowSlots', () => {
  it('keeps the slot of a row that stays in view and gives a new row a freed slot', () => {
    const slots = new RowSlots();
    expect(slots.assign(range(0, 4))).toEqual([0, 1, 2, 3]);
    // Scrolled down by one row: row 0 left, row 4 takes its slot.
    expect(slots.assign(range(1, 4))).toEqual([1, 2, 3, 0]);
  });

  it('reuses every slot after a jump, without new ones', () => {
    const slots = new RowSlots();
    slots.assign(range(0, 40));
    const jumped = slots.assign(range(10_000, 40));
    expect(new Set(jumped)).toEqual(new Set(range(0, 40)));
  });

  it('gives unique slots when more rows come into view, and the same slots for the same rows', () => {
    const slots = new RowSlots();
    slots.assign(range(0, 3));
    const more = slots.assign(range(2, 6));
    expect(new Set(more).size).toBe(6);
    expect(more[0]).toBe(2);
    expect(slots.assign(range(2, 6))).toEqual(more);
  });
});
