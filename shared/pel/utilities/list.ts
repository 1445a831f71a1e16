/** `@list`: list helpers that return new lists (the list methods change lists in place). */
import { utilityError } from '../errors';
import { isMapLike, readOwn, setEntry } from '../safety';
import { compareValues, deepEquals, equalityKeyer, templateText } from '../values';
import { type UtilitySpec, capItems, int, joinTexts, list, optionalInt, optionalText, text } from './support';

const NO_SITE = { source: '', start: 0, end: 0 };

function sortValues(fn: string, items: unknown[], key: string | null): unknown[] {
  const valueOf = (v: unknown): unknown => (key !== null && isMapLike(v) ? readOwn(v, key) : v);
  try {
    return [...items].sort((x, y) => compareValues(valueOf(x), valueOf(y), NO_SITE));
  } catch {
    throw utilityError(`${fn}: the items cannot be compared (mixed types)`);
  }
}

function distinct(items: unknown[]): unknown[] {
  const seen = new Set<string>();
  const keyOf = equalityKeyer();
  const out: unknown[] = [];
  for (const v of items) {
    const key = keyOf(v);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(v);
    }
  }
  return out;
}

/** The items of `items` that are (or, with `keep` false, are not) equal to some item of `other`. */
function filterByMembership(items: unknown[], other: unknown[], keep: boolean): unknown[] {
  const keyOf = equalityKeyer();
  const keys = new Set(other.map(keyOf));
  return items.filter((v) => keys.has(keyOf(v)) === keep);
}

export const listUtility: UtilitySpec = {
  name: 'list',
  doc: 'List helpers; they return new lists and read null as an empty list.',
  functions: {
    of: { signature: 'of(...items)', doc: 'A list of the arguments.', fn: (...a) => [...a] },
    size: {
      signature: 'size(list)',
      doc: 'The number of items (0 for null).',
      fn: (...a) => list('size', a, 0).length,
    },
    isEmpty: {
      signature: 'isEmpty(list)',
      doc: 'True for null or an empty list.',
      fn: (...a) => list('isEmpty', a, 0).length === 0,
    },
    contains: {
      signature: 'contains(list, item)',
      doc: 'True when an item equals the value.',
      fn: (...a) => list('contains', a, 0).some((v) => deepEquals(v, a[1])),
    },
    indexOf: {
      signature: 'indexOf(list, item)',
      doc: 'The first index of the item, or -1.',
      fn: (...a) => list('indexOf', a, 0).findIndex((v) => deepEquals(v, a[1])),
    },
    first: {
      signature: 'first(list)',
      doc: 'The first item, or null.',
      fn: (...a) => list('first', a, 0)[0] ?? null,
    },
    last: {
      signature: 'last(list)',
      doc: 'The last item, or null.',
      fn: (...a) => list('last', a, 0).at(-1) ?? null,
    },
    sort: {
      signature: 'sort(list)',
      doc: 'Sorted ascending (numbers, texts or booleans; null first).',
      fn: (...a) => sortValues('sort', list('sort', a, 0), null),
    },
    sortBy: {
      signature: 'sortBy(list, key)',
      doc: 'Maps sorted ascending by one key.',
      fn: (...a) => sortValues('sortBy', list('sortBy', a, 0), text('sortBy', a, 1)),
    },
    reverse: {
      signature: 'reverse(list)',
      doc: 'Reversed.',
      fn: (...a) => [...list('reverse', a, 0)].reverse(),
    },
    distinct: {
      signature: 'distinct(list)',
      doc: 'Without repeated items (by value).',
      fn: (...a) => distinct(list('distinct', a, 0)),
    },
    flatten: {
      signature: 'flatten(list)',
      doc: 'Lists inside the list spread into it (one level).',
      fn: (...a) => {
        const items = list('flatten', a, 0);
        // Counted first: the inner lists may all be one list, referenced many times.
        capItems(
          'flatten',
          items.reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : 1), 0),
        );
        return items.flatMap((v) => (Array.isArray(v) ? v : [v]));
      },
    },
    concat: {
      signature: 'concat(...lists)',
      doc: 'The lists one after another.',
      fn: (...a) => {
        const total = a.reduce<number>((n, _v, i) => n + list('concat', a, i).length, 0);
        capItems('concat', total);
        return a.flatMap((_v, i) => list('concat', a, i));
      },
    },
    join: {
      signature: 'join(list, separator?)',
      doc: "The items as text, separated (default ',').",
      fn: (...a) =>
        joinTexts(
          'join',
          list('join', a, 0).map((v) => templateText(v)),
          optionalText('join', a, 1, ','),
        ),
    },
    range: {
      signature: 'range(from, to, step?)',
      doc: 'Integers from (inclusive) to (exclusive): @list.range(0, 3) is {0, 1, 2}.',
      fn: (...a) => {
        const from = int('range', a, 0);
        const to = int('range', a, 1);
        const step = optionalInt('range', a, 2, from <= to ? 1 : -1);
        if (step === 0) throw utilityError('range: step must not be 0');
        const count = Math.max(0, Math.ceil((to - from) / step));
        capItems('range', count);
        return Array.from({ length: count }, (_v, i) => from + i * step);
      },
    },
    slice: {
      signature: 'slice(list, from, to?)',
      doc: 'The items from (inclusive) to (exclusive); negative positions count from the end.',
      fn: (...a) => {
        const l = list('slice', a, 0);
        return l.slice(int('slice', a, 1), optionalInt('slice', a, 2, l.length));
      },
    },
    add: {
      signature: 'add(list, item)',
      doc: 'A new list with the item appended.',
      fn: (...a) => {
        const l = list('add', a, 0);
        capItems('add', l.length + 1);
        return [...l, a[1]];
      },
    },
    remove: {
      signature: 'remove(list, item)',
      doc: 'A new list without the items equal to the value.',
      fn: (...a) => list('remove', a, 0).filter((v) => !deepEquals(v, a[1])),
    },
    groupBy: {
      signature: 'groupBy(list, key)',
      doc: 'A map from each value of the key to the maps that have it.',
      fn: (...a) => {
        const key = text('groupBy', a, 1);
        const out: Record<string, unknown[]> = {};
        for (const v of list('groupBy', a, 0)) {
          const k = templateText(isMapLike(v) ? readOwn(v, key) : null);
          if (!Object.hasOwn(out, k)) setEntry(out, k, []);
          out[k]!.push(v);
        }
        return out;
      },
    },
    chunk: {
      signature: 'chunk(list, size)',
      doc: 'The list cut into lists of at most size items.',
      fn: (...a) => {
        const l = list('chunk', a, 0);
        const size = int('chunk', a, 1);
        if (size < 1) throw utilityError('chunk: size must be at least 1');
        const out: unknown[][] = [];
        for (let i = 0; i < l.length; i += size) out.push(l.slice(i, i + size));
        return out;
      },
    },
    intersect: {
      signature: 'intersect(list, other)',
      doc: 'The items of the list that are also in the other.',
      fn: (...a) => {
        return filterByMembership(list('intersect', a, 0), list('intersect', a, 1), true);
      },
    },
    subtract: {
      signature: 'subtract(list, other)',
      doc: 'The items of the list that are not in the other.',
      fn: (...a) => {
        return filterByMembership(list('subtract', a, 0), list('subtract', a, 1), false);
      },
    },
  },
};
