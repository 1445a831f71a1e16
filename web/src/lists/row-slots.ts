/**
 * Stable React keys for the rows a virtualized list draws. A row that stays in view keeps its slot, a row that
 * comes into view takes a slot a row leaving it freed: a jump far down the list reuses the drawn rows (their
 * text changes) instead of removing them all and building as many new ones.
 */
export class RowSlots {
  private slotOf = new Map<number, number>();

  /** The slot of each row index, in order; the same indexes give the same slots. */
  assign(indexes: readonly number[]): number[] {
    const kept = new Map<number, number>();
    const used = new Set<number>();
    for (const index of indexes) {
      const slot = this.slotOf.get(index);
      if (slot !== undefined && !used.has(slot)) {
        kept.set(index, slot);
        used.add(slot);
      }
    }
    let free = 0;
    const slots = indexes.map((index) => {
      const known = kept.get(index);
      if (known !== undefined) return known;
      while (used.has(free)) free++;
      used.add(free);
      kept.set(index, free);
      return free;
    });
    this.slotOf = kept;
    return slots;
  }
}
