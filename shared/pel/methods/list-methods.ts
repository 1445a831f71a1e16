/** The methods a Java developer calls on lists (java.util.List), including the mutating ones, size-checked. */
import { clean } from '../safety';
import { deepEquals, equalityKeyer, toText } from '../values';
import {
  type MethodEnv,
  argInt,
  argList,
  assertWritable,
  limitGrowth,
  limitList,
  limitString,
  methodTable,
  outOfBounds,
} from './method-support';

function indexOf(list: unknown[], v: unknown): number {
  for (let i = 0; i < list.length; i++) if (deepEquals(list[i], v)) return i;
  return -1;
}

function lastIndexOf(list: unknown[], v: unknown): number {
  for (let i = list.length - 1; i >= 0; i--) if (deepEquals(list[i], v)) return i;
  return -1;
}

function at(list: unknown[], i: number, env: MethodEnv): unknown {
  return i >= 0 && i < list.length ? clean(list[i]) : outOfBounds(env, i, list.length);
}

function writable(list: unknown[], env: MethodEnv, growBy = 0): void {
  assertWritable(list, '', env);
  if (growBy > 0) limitGrowth(list.length, growBy, env);
}

export const LIST_METHODS = methodTable<unknown[]>({
  size: { signature: 'size()', doc: 'The number of items.', call: (l) => l.length },
  isEmpty: { signature: 'isEmpty()', doc: 'True when there are no items.', call: (l) => l.length === 0 },
  contains: {
    signature: 'contains(item)',
    doc: 'True when an item equals the value.',
    call: (l, a) => indexOf(l, a[0]) >= 0,
  },
  containsAll: {
    signature: 'containsAll(items)',
    doc: 'True when every one of the items is in the list.',
    call: (l, a, env) => {
      const items = argList(a, 0, env);
      if (items.length <= 8) return items.every((v) => indexOf(l, v) >= 0);
      const keyOf = equalityKeyer();
      const keys = new Set(l.map(keyOf));
      return items.every((v) => keys.has(keyOf(v)));
    },
  },
  get: {
    signature: 'get(index)',
    doc: 'The item at the index.',
    call: (l, a, env) => at(l, argInt(a, 0, env), env),
  },
  getFirst: { signature: 'getFirst()', doc: 'The first item.', call: (l, _a, env) => at(l, 0, env) },
  getLast: { signature: 'getLast()', doc: 'The last item.', call: (l, _a, env) => at(l, l.length - 1, env) },
  indexOf: {
    signature: 'indexOf(item)',
    doc: 'The first index of the item, or -1.',
    call: (l, a) => indexOf(l, a[0]),
  },
  lastIndexOf: {
    signature: 'lastIndexOf(item)',
    doc: 'The last index of the item, or -1.',
    call: (l, a) => lastIndexOf(l, a[0]),
  },
  subList: {
    signature: 'subList(from, to)',
    doc: 'A copy of the items from (inclusive) to (exclusive).',
    call: (l, a, env) => {
      const from = argInt(a, 0, env);
      const to = argInt(a, 1, env);
      if (from < 0 || to > l.length || from > to)
        outOfBounds(env, from < 0 || from > to ? from : to, l.length);
      return limitList(l.slice(from, to), env);
    },
  },
  reversed: {
    signature: 'reversed()',
    doc: 'A reversed copy.',
    call: (l, _a, env) => limitList([...l].reverse(), env),
  },
  add: {
    signature: 'add(indexOrItem, item?)',
    doc: 'Appends an item (or inserts it at an index); changes the list.',
    call: (l, a, env) => {
      writable(l, env, 1);
      if (a.length === 1) {
        l.push(a[0]);
        return true;
      }
      const i = argInt(a, 0, env);
      if (i < 0 || i > l.length) outOfBounds(env, i, l.length);
      l.splice(i, 0, a[1]);
      return null;
    },
  },
  addAll: {
    signature: 'addAll(items)',
    doc: 'Appends all items; changes the list.',
    call: (l, a, env) => {
      const items = argList(a, 0, env);
      writable(l, env, items.length);
      for (const v of items) l.push(v);
      return items.length > 0;
    },
  },
  set: {
    signature: 'set(index, item)',
    doc: 'Replaces the item at the index and returns the previous one; changes the list.',
    call: (l, a, env) => {
      writable(l, env);
      const i = argInt(a, 0, env);
      const previous = at(l, i, env);
      l[i] = a[1];
      return previous;
    },
  },
  remove: {
    signature: 'remove(indexOrItem)',
    doc: 'Removes at an integer index (returns the item) or the first equal item (returns true/false).',
    call: (l, a, env) => {
      writable(l, env);
      const v = a[0];
      if (typeof v === 'number' && Number.isInteger(v)) {
        const item = at(l, v, env);
        l.splice(v, 1);
        return item;
      }
      const i = indexOf(l, v);
      if (i >= 0) l.splice(i, 1);
      return i >= 0;
    },
  },
  clear: {
    signature: 'clear()',
    doc: 'Removes every item; changes the list.',
    call: (l, _a, env) => {
      writable(l, env);
      l.length = 0;
      return null;
    },
  },
  equals: {
    signature: 'equals(other)',
    doc: 'True when equal item by item.',
    call: (l, a) => deepEquals(l, a[0]),
  },
  toString: {
    signature: 'toString()',
    doc: 'The list as JSON.',
    call: (l, _a, env) => limitString(toText(l, env.rt.limits.maxStringLength), env),
  },
});
