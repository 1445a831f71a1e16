/** `data.list.sort`: sorts a list by a PEL key of each item (stable; nulls last). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { projectEach, unwrap } from './evaluate-in-context';
import { inputList } from './list-filter';

function rank(value: unknown): number {
  if (value === null || value === undefined) return 3;
  if (typeof value === 'number' || typeof value === 'boolean') return 0;
  if (typeof value === 'string') return 1;
  return 2;
}

/** Numbers by value, text by the locale-independent code order or naturally, nulls after everything. */
function compare(a: unknown, b: unknown, natural: Intl.Collator | undefined): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return Number(a) - Number(b);
  if (ra === 1) {
    if (natural) return natural.compare(a as string, b as string);
    return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
  }
  if (ra === 2) return JSON.stringify(a).localeCompare(JSON.stringify(b));
  return 0;
}

export const dataListSort = defineCommand(
  {
    name: 'data.list.sort',
    summary: 'Sorts the input list by a key of each item (a field name or PEL), ascending or descending.',
    description:
      'The key is PEL evaluated on each item (`lastName`, `address.city`, `total * 1.19`); without one the items themselves are compared. Numbers sort by value, text by character code (or naturally and case-blind with `natural: true`), empty keys last. The sort is stable.',
    parameters: {
      by: { type: 'string', description: 'The key of each item (PEL); empty: the item itself.' },
      order: { type: 'string', enum: ['asc', 'desc', 'ASC', 'DESC'], default: 'asc', description: 'asc or desc.' },
      natural: {
        type: 'boolean',
        default: false,
        description: 'Compares text case-blind with numbers inside by value ("item 2" before "item 10").',
      },
    },
    defaultParameter: 'by',
    rawParameters: ['by'],
    input: 'json',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Most expensive first',
        pipeline: 'body: [{n: a, price: 2}, {n: b, price: 5}]\npipeline:\n  - data.list.sort:\n      by: price\n      order: desc\n',
      },
    ],
  },
  (ctx) => {
    const items = inputList(ctx.input, 'data.list.sort');
    const by = typeof ctx.params.by === 'string' && ctx.params.by.trim() !== '' ? unwrap(ctx.params.by) : undefined;
    const keys = by === undefined ? items : projectEach(ctx, items, by, 'by');
    if (keys.length !== items.length) throw new PipeworkError('INTERNAL', 'data.list.sort: keys and items differ.');
    const natural = ctx.params.natural === true ? new Intl.Collator('en', { numeric: true, sensitivity: 'base' }) : undefined;
    const direction = String(ctx.params.order ?? 'asc').toLowerCase() === 'desc' ? -1 : 1;
    const order = items.map((_, i) => i);
    order.sort((i, j) => {
      const a = keys[i];
      const b = keys[j];
      // Empty keys stay last in both directions.
      if (rank(a) === 3 || rank(b) === 3) return rank(a) === 3 ? (rank(b) === 3 ? i - j : 1) : -1;
      return direction * compare(a, b, natural) || i - j;
    });
    return order.map((i) => items[i]);
  },
);
