/** `@list`: list helpers that return new lists (the list methods change lists in place). */
import { utilityError } from '../errors';
import { isMapLike, readOwn, setEntry } from '../safety';
import { compareValues, deepEquals, equalityKeyer, templateText } from '../values';
import {
  type UtilitySpec,
  capItems,
  int,
  joinTexts,
  list,
  listOrText,
  optionalInt,
  optionalText,
  text,
} from './support';

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

/** A position of `sublist`: negative counts from the end; clamped to the list. */
function position(raw: string, length: number, fallback: number, expression: string): number {
  if (raw.trim() === '') return fallback;
  if (!/^\s*-?\d+\s*$/.test(raw))
    throw utilityError(`sublist: '${expression}' is not 'from:to' (whole numbers, either may be left out)`);
  const n = Number(raw);
  return Math.min(length, Math.max(0, n < 0 ? length + n : n));
}

/** `sublist`'s range: 'from:to' (to exclusive, negatives from the end), 'from:' , ':to', or one index 'n' (from n on). */
function sublist(items: unknown[], expression: unknown): unknown[] {
  const e = typeof expression === 'number' ? String(expression) : expression;
  if (typeof e !== 'string') throw utilityError("sublist: the range must be a text such as '1:3'");
  const colon = e.indexOf(':');
  const [from, to] = colon < 0 ? [e, ''] : [e.slice(0, colon), e.slice(colon + 1)];
  const start = position(from, items.length, 0, e);
  const end = position(to, items.length, items.length, e);
  return start >= end ? [] : items.slice(start, end);
}

export const listUtility: UtilitySpec = {
  name: 'list',
  doc: 'List helpers; they return new lists and read null as an empty list.',
  functions: {
    of: { signature: 'of(...items)', doc: 'A list of the arguments.', fn: (...a) => [...a] },
    create: { signature: 'create()', doc: 'A new empty list.', fn: () => [] },
    copy: {
      signature: 'copy(list)',
      doc: 'A new list with the same items (null gives an empty list).',
      fn: (...a) => [...listOrText('copy', a, 0)],
    },
    size: {
      signature: 'size(list)',
      doc: "The number of items (0 for null; a text counts its comma-separated items): @list.size('a, b') is 2.",
      fn: (...a) => listOrText('size', a, 0).length,
    },
    empty: {
      signature: 'empty(list)',
      doc: 'True for null or an empty list.',
      fn: (...a) => listOrText('empty', a, 0).length === 0,
    },
    contains: {
      signature: 'contains(list, needles)',
      doc: "True when the list holds the needle or any of a list of needles: @list.contains('a, b', 'b') is true.",
      fn: (...a) => {
        const items = listOrText('contains', a, 0);
        const needles = Array.isArray(a[1]) ? a[1] : [a[1]];
        return needles.some((n) => items.some((v) => deepEquals(v, n)));
      },
    },
    indexOf: {
      signature: 'indexOf(list, item)',
      doc: 'The first index of the item, or -1.',
      fn: (...a) => list('indexOf', a, 0).findIndex((v) => deepEquals(v, a[1])),
    },
    first: {
      signature: 'first(value)',
      doc: "The first item, or null; a text is read as comma-separated items: @list.first('Megan, Sharol') is 'Megan'.",
      fn: (...a) => listOrText('first', a, 0)[0] ?? null,
    },
    last: {
      signature: 'last(value)',
      doc: 'The last item, or null (a text is read as comma-separated items).',
      fn: (...a) => listOrText('last', a, 0).at(-1) ?? null,
    },
    sublist: {
      signature: 'sublist(value, expression)',
      doc: "The items in a range 'from:to' (to exclusive; negatives count from the end; either side may be left out): @list.sublist({1, 2, 3, 4}, '1:3') is {2, 3}.",
      fn: (...a) => sublist(listOrText('sublist', a, 0), a[1]),
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
    add: {
      signature: 'add(list, element)',
      overloads: ['add(list, element, ignoreNulls)'],
      doc: 'Appends the element to the list and returns it (a list element is appended as one item; the list itself changes, as in the real product, so @list.add(body, x) in an eval collects); with ignoreNulls true a null element is not added.',
      fn: (...a) => {
        const l = listOrText('add', a, 0);
        const element = a[1] ?? null;
        const target = Array.isArray(a[0]) ? l : [...l];
        if (element === null && a[2] === true) return target;
        capItems('add', l.length + 1);
        target.push(element);
        return target;
      },
    },
    remove: {
      signature: 'remove(list, index)',
      doc: 'A new list without the item at index (negative counts from the end; out of range leaves it whole).',
      fn: (...a) => {
        const l = listOrText('remove', a, 0);
        const index = int('remove', a, 1);
        const at = index < 0 ? l.length + index : index;
        return l.filter((_v, i) => i !== at);
      },
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
