/** The methods a Java developer calls on maps (java.util.Map); keys are strings, reads see own data only. */
import { hasOwnKey, ownKeys, readOwn, writeOwn } from '../safety';
import { deepEquals, toText } from '../values';
import {
  argKey,
  argMap,
  assertWritable,
  countBuilt,
  limitGrowth,
  limitList,
  limitString,
  methodTable,
} from './method-support';

function entryOf(key: string, value: unknown): Record<string, unknown> {
  return { key, value };
}

function remove(target: object, key: string): void {
  if (target instanceof Map) target.delete(key);
  else delete (target as Record<string, unknown>)[key];
}

export const MAP_METHODS = methodTable<object>({
  size: { signature: 'size()', doc: 'The number of entries.', call: (m) => ownKeys(m).length },
  isEmpty: {
    signature: 'isEmpty()',
    doc: 'True when there are no entries.',
    call: (m) => ownKeys(m).length === 0,
  },
  get: {
    signature: 'get(key)',
    doc: 'The value of the key, or null.',
    call: (m, a, env) => readOwn(m, argKey(a, 0, env)),
  },
  getOrDefault: {
    signature: 'getOrDefault(key, fallback)',
    doc: 'The value of the key, or the fallback when the key is absent.',
    call: (m, a, env) => {
      const key = argKey(a, 0, env);
      return hasOwnKey(m, key) ? readOwn(m, key) : a[1];
    },
  },
  containsKey: {
    signature: 'containsKey(key)',
    doc: 'True when the key is present.',
    call: (m, a, env) => hasOwnKey(m, argKey(a, 0, env)),
  },
  containsValue: {
    signature: 'containsValue(value)',
    doc: 'True when some entry has the value.',
    call: (m, a) => ownKeys(m).some((k) => deepEquals(readOwn(m, k), a[0])),
  },
  keySet: {
    signature: 'keySet()',
    doc: 'The keys, as a list.',
    call: (m, _a, env) => limitList(ownKeys(m), env),
  },
  values: {
    signature: 'values()',
    doc: 'The values, as a list.',
    call: (m, _a, env) =>
      limitList(
        ownKeys(m).map((k) => readOwn(m, k)),
        env,
      ),
  },
  entrySet: {
    signature: 'entrySet()',
    doc: 'The entries, as a list of {key, value} maps.',
    call: (m, _a, env) => {
      const keys = limitList(ownKeys(m), env);
      countBuilt(keys.length * 10, env);
      return keys.map((k) => entryOf(k, readOwn(m, k)));
    },
  },
  put: {
    signature: 'put(key, value)',
    doc: 'Sets the key and returns the previous value; changes the map.',
    call: (m, a, env) => {
      const key = argKey(a, 0, env);
      assertWritable(m, key, env);
      const previous = readOwn(m, key);
      if (!hasOwnKey(m, key)) limitGrowth(ownKeys(m).length, 1, env);
      writeOwn(m, key, a[1]);
      return previous;
    },
  },
  putIfAbsent: {
    signature: 'putIfAbsent(key, value)',
    doc: 'Sets the key only when it is absent or null; returns the previous value.',
    call: (m, a, env) => {
      const key = argKey(a, 0, env);
      assertWritable(m, key, env);
      const previous = readOwn(m, key);
      if (previous === null) writeOwn(m, key, a[1]);
      return previous;
    },
  },
  putAll: {
    signature: 'putAll(map)',
    doc: 'Copies every entry of the other map; changes the map.',
    call: (m, a, env) => {
      const other = argMap(a, 0, env);
      const keys = ownKeys(other);
      for (const k of keys) assertWritable(m, k, env);
      limitGrowth(ownKeys(m).length, keys.length, env);
      for (const k of keys) writeOwn(m, k, readOwn(other, k));
      return null;
    },
  },
  remove: {
    signature: 'remove(key)',
    doc: 'Removes the key and returns its value; changes the map.',
    call: (m, a, env) => {
      const key = argKey(a, 0, env);
      assertWritable(m, key, env);
      const previous = readOwn(m, key);
      if (hasOwnKey(m, key)) remove(m, key);
      return previous;
    },
  },
  clear: {
    signature: 'clear()',
    doc: 'Removes every entry; changes the map.',
    call: (m, _a, env) => {
      assertWritable(m, '', env);
      for (const k of ownKeys(m)) remove(m, k);
      return null;
    },
  },
  equals: {
    signature: 'equals(other)',
    doc: 'True when equal entry by entry.',
    call: (m, a) => deepEquals(m, a[0]),
  },
  toString: {
    signature: 'toString()',
    doc: 'The map as JSON.',
    call: (m, _a, env) => limitString(toText(m, env.rt.limits.maxStringLength), env),
  },
});
