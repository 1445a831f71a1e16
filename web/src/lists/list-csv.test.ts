import { describe, expect, it } from 'vitest';
import { toCsv } from './list-csv';

describe('toCsv', () => {
  it('quotes, escapes and defuses formulas', () => {
    const csv = toCsv(
      [
        { field: 'a', title: 'A' },
        { field: 'b', title: 'B "x"' },
      ],
      [{ key: 'k1', value: { a: '=1+1', b: 'x,y\nz' } }],
    );
    expect(csv).toBe('key,A,"B ""x"""\r\nk1,\'=1+1,"x,y\nz"\r\n');
  });
});
