/** `@data`: reading, copying and merging JSON-like data by path ('a.b[0].c'), own data only. */
import { utilityError } from '../errors';
import { FORBIDDEN_KEYS, clean, hasOwnKey, isMapLike, ownKeys, readOwn, setEntry } from '../safety';
import { deepEquals, toPlainData, typeOf } from '../values';
import { type UtilitySpec, capItems, int, list, listOrText, map, noteBuilt, sizeOf, text } from './support';

/** How many steps a path may have: data nested deeper than this cannot be printed as JSON anyway. */
export const MAX_PATH_STEPS = 100;

/** The steps of a path: `a.b[0].c` is ['a', 'b', 0, 'c']. */
export function pathSteps(fn: string, path: string): (string | number)[] {
  if (path === '') return [];
  if (path.length > 10_000) throw utilityError(`${fn}: the path is longer than 10000 characters`);
  const steps: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]/g;
  let at = 0;
  for (let m = re.exec(path); m; m = re.exec(path)) {
    const gap = path.slice(at, m.index);
    if (gap !== '' && gap !== '.') throw utilityError(`${fn}: malformed path '${path}'`);
    steps.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3])!);
    if (steps.length > MAX_PATH_STEPS)
      throw utilityError(`${fn}: the path has more than ${MAX_PATH_STEPS} steps`);
    at = re.lastIndex;
  }
  if (at !== path.length) throw utilityError(`${fn}: malformed path '${path}'`);
  return steps;
}

/** Follows a path through maps and lists; anything missing reads as null. */
export function readPath(value: unknown, steps: (string | number)[]): unknown {
  let v = value;
  for (const step of steps) {
    if (Array.isArray(v) && typeof step === 'number') v = step < v.length ? clean(v[step]) : null;
    else if (isMapLike(v)) v = readOwn(v, String(step));
    else return null;
  }
  return v;
}

/**
 * A deep copy, reported to the evaluation's size count. Its size is known before copying: a list of
 * references to one large list is small until it is copied.
 */
function deepCopy(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return toPlainData(v, 0);
  const size = sizeOf(v);
  capItems('copy', size);
  noteBuilt(size);
  return toPlainData(v, 0);
}

function merge(a: unknown, b: unknown, depth = 0): unknown {
  if (depth > 100) throw utilityError('merge: the data is nested too deeply');
  if (!isMapLike(a) || !isMapLike(b)) return deepCopy(b === undefined ? a : b);
  const out = deepCopy(a) as Record<string, unknown>;
  for (const k of ownKeys(b)) setEntry(out, k, merge(readOwn(out, k), readOwn(b, k), depth + 1));
  return out;
}

function setPath(root: unknown, steps: (string | number)[], value: unknown, at = 0): unknown {
  if (at === steps.length) return value;
  const head = steps[at]!;
  if (typeof head === 'string' && FORBIDDEN_KEYS.has(head))
    throw utilityError(`set: the key '${head}' cannot be written`);
  if (typeof head === 'number' && Array.isArray(root)) {
    const copy = [...root];
    if (head > copy.length) throw utilityError(`set: index ${head} is out of bounds for size ${copy.length}`);
    copy[head] = setPath(copy[head] ?? null, steps, value, at + 1);
    return copy;
  }
  const copy = (isMapLike(root) ? { ...(deepCopy(root) as object) } : {}) as Record<string, unknown>;
  setEntry(copy, String(head), setPath(readOwn(copy, String(head)), steps, value, at + 1));
  return copy;
}

function keysOf(fn: string, a: unknown[]): string[] {
  const rest = a.slice(1);
  return rest.length === 1 && Array.isArray(rest[0])
    ? rest[0].map(String)
    : rest.map((_v, i) => text(fn, a, i + 1));
}

/** The names `isType` accepts for each PEL type: ours and JSON's. */
const TYPE_NAMES: Record<string, string> = {
  null: 'null',
  boolean: 'boolean',
  number: 'number',
  integer: 'number',
  decimal: 'number',
  string: 'string',
  text: 'string',
  list: 'list',
  array: 'list',
  map: 'map',
  object: 'map',
};

/** `select`: a map of only the selected paths of a map (their nesting kept); a list selects in each item. */
function select(input: unknown, paths: string[]): unknown {
  if (Array.isArray(input)) return input.map((item) => select(item, paths));
  if (input === null || input === undefined) return null;
  let out: unknown = {};
  for (const path of paths) {
    const steps = pathSteps('select', path);
    const value = readPath(input, steps);
    if (value !== null) out = setPath(out, steps, value);
  }
  return out;
}

export const dataUtility: UtilitySpec = {
  name: 'data',
  doc: "Data helpers over maps and lists; paths are written 'a.b[0].c' (at most 100 steps).",
  functions: {
    get: {
      signature: 'get(data, attribute)',
      doc: "The value at a path, or null: @data.get(body, 'items[0].name').",
      fn: (...a) => readPath(a[0], pathSteps('get', text('get', a, 1))),
    },
    has: {
      signature: 'has(data, attribute)',
      doc: 'True when the path leads to an existing key or index.',
      fn: (...a) => {
        const steps = pathSteps('has', text('has', a, 1));
        const last = steps.pop();
        if (last === undefined) return a[0] !== null && a[0] !== undefined;
        const parent = readPath(a[0], steps);
        if (Array.isArray(parent)) return typeof last === 'number' && last < parent.length;
        return isMapLike(parent) && hasOwnKey(parent, String(last));
      },
    },
    put: {
      signature: 'put(map, key, value)',
      doc: "A copy of the map with one key set (null reads as an empty map): @data.put({'a': 1}, 'b', 2) is {'a': 1, 'b': 2}.",
      fn: (...a) => {
        const key = text('put', a, 1);
        if (FORBIDDEN_KEYS.has(key)) throw utilityError(`put: the key '${key}' cannot be written`);
        const source = a[0] === null || a[0] === undefined ? {} : map('put', a, 0);
        const out: Record<string, unknown> = {};
        for (const k of ownKeys(source)) setEntry(out, k, readOwn(source, k));
        setEntry(out, key, clean(a[2]));
        return out;
      },
    },
    select: {
      signature: 'select(input, selections)',
      doc: "Only the selected paths (a list or comma-separated text) of a map, or of each map of a list: @data.select({'a': 1, 'b': {'c': 2, 'd': 3}}, 'a, b.c') is {'a': 1, 'b': {'c': 2}}.",
      fn: (...a) => select(a[0], listOrText('select', a, 1).map(String)),
    },
    integerList: {
      signature: 'integerList(startInt, endInt)',
      doc: 'The whole numbers from startInt to endInt, both included: @data.integerList(1, 3) is {1, 2, 3}.',
      fn: (...a) => {
        const from = int('integerList', a, 0);
        const to = int('integerList', a, 1);
        const count = Math.max(0, to - from + 1);
        capItems('integerList', count);
        return Array.from({ length: count }, (_v, i) => from + i);
      },
    },
    emptyObject: { signature: 'emptyObject()', doc: 'A new empty map.', fn: () => ({}) },
    emptyList: { signature: 'emptyList()', doc: 'A new empty list.', fn: () => [] },
    isType: {
      signature: 'isType(data, type)',
      doc: "True when the data has the type: 'null', 'boolean', 'number', 'string', 'list' (or 'array'), 'map' (or 'object').",
      fn: (...a) => {
        const name = text('isType', a, 1).toLowerCase();
        const type = TYPE_NAMES[name];
        if (type === undefined) throw utilityError(`isType: unknown type '${name}'`);
        if (name === 'integer') return Number.isInteger(a[0]);
        return typeOf(a[0]) === type;
      },
    },
    isArray: { signature: 'isArray(data)', doc: 'True for a list.', fn: (...a) => Array.isArray(a[0]) },
    isBoolean: {
      signature: 'isBoolean(data)',
      doc: 'True for true or false.',
      fn: (...a) => typeof a[0] === 'boolean',
    },
    isNumber: {
      signature: 'isNumber(data)',
      doc: 'True for a number.',
      fn: (...a) => typeof a[0] === 'number',
    },
    isObject: { signature: 'isObject(data)', doc: 'True for a map.', fn: (...a) => isMapLike(a[0]) },
    isString: {
      signature: 'isString(data)',
      doc: 'True for a text.',
      fn: (...a) => typeof a[0] === 'string',
    },
    set: {
      signature: 'set(data, path, value)',
      doc: 'A copy of the data with the value at the path (missing maps are created).',
      fn: (...a) => setPath(a[0], pathSteps('set', text('set', a, 1)), a[2]),
    },
    keys: {
      signature: 'keys(data)',
      doc: 'The keys of a map (an empty list for null).',
      fn: (...a) => (a[0] === null || a[0] === undefined ? [] : ownKeys(map('keys', a, 0))),
    },
    values: {
      signature: 'values(map)',
      doc: 'The values.',
      fn: (...a) => {
        const m = map('values', a, 0);
        return ownKeys(m).map((k) => readOwn(m, k));
      },
    },
    entries: {
      signature: 'entries(map)',
      doc: 'The entries as {key, value} maps.',
      fn: (...a) => {
        const m = map('entries', a, 0);
        return ownKeys(m).map((key) => ({ key, value: readOwn(m, key) }));
      },
    },
    fromEntries: {
      signature: 'fromEntries(entries)',
      doc: 'A map from {key, value} maps (or [key, value] lists).',
      fn: (...a) => {
        const out: Record<string, unknown> = {};
        for (const e of list('fromEntries', a, 0)) {
          const [k, v] = Array.isArray(e)
            ? [e[0], e[1]]
            : isMapLike(e)
              ? [readOwn(e, 'key'), readOwn(e, 'value')]
              : [null, null];
          if (typeof k !== 'string' && typeof k !== 'number')
            throw utilityError('fromEntries: every entry needs a key');
          if (FORBIDDEN_KEYS.has(String(k)))
            throw utilityError(`fromEntries: the key '${String(k)}' cannot be written`);
          setEntry(out, String(k), clean(v));
        }
        return out;
      },
    },
    merge: {
      signature: 'merge(map, other)',
      doc: 'A deep merge: keys of the other win, nested maps are merged.',
      fn: (...a) => merge(a[0], a[1]),
    },
    copy: { signature: 'copy(data)', doc: 'A deep copy.', fn: (...a) => deepCopy(a[0]) },
    pick: {
      signature: 'pick(map, ...keys)',
      doc: 'A map with only the given keys.',
      fn: (...a) => {
        const m = map('pick', a, 0);
        const out: Record<string, unknown> = {};
        for (const k of keysOf('pick', a)) if (hasOwnKey(m, k)) setEntry(out, k, readOwn(m, k));
        return out;
      },
    },
    omit: {
      signature: 'omit(map, ...keys)',
      doc: 'A map without the given keys.',
      fn: (...a) => {
        const m = map('omit', a, 0);
        const drop = new Set(keysOf('omit', a));
        const out: Record<string, unknown> = {};
        for (const k of ownKeys(m)) if (!drop.has(k)) setEntry(out, k, readOwn(m, k));
        return out;
      },
    },
    isEmpty: {
      signature: 'isEmpty(data)',
      doc: "True for null, '', an empty list or an empty map.",
      fn: (...a) => {
        const v = a[0];
        if (v === null || v === undefined || v === '') return true;
        if (Array.isArray(v)) return v.length === 0;
        return isMapLike(v) && ownKeys(v).length === 0;
      },
    },
    isNull: {
      signature: 'isNull(data)',
      doc: 'True for null.',
      fn: (...a) => a[0] === null || a[0] === undefined,
    },
    type: {
      signature: 'type(data)',
      doc: "'null', 'boolean', 'number', 'string', 'list' or 'map'.",
      fn: (...a) => typeOf(a[0]),
    },
    size: {
      signature: 'size(value)',
      doc: 'Items of a list, entries of a map, characters of a text; 0 for null.',
      fn: (...a) => {
        const v = a[0];
        if (typeof v === 'string' || Array.isArray(v)) return v.length;
        return isMapLike(v) ? ownKeys(v).length : 0;
      },
    },
    defaultIfNull: {
      signature: 'defaultIfNull(value, fallback)',
      doc: 'The fallback when the value is null.',
      fn: (...a) => (a[0] === null || a[0] === undefined ? a[1] : a[0]),
    },
    equals: { signature: 'equals(a, b)', doc: 'Deep equality.', fn: (...a) => deepEquals(a[0], a[1]) },
    repeat: {
      signature: 'repeat(value, count)',
      doc: 'A list of count copies of the value.',
      fn: (...a) => {
        const n = Number(a[1]);
        if (!Number.isInteger(n) || n < 0) throw utilityError('repeat: count must be a non-negative integer');
        // Every copy is as large as the value: the cap is on all of them together.
        capItems('repeat', n * sizeOf(a[0]));
        return Array.from({ length: n }, () => deepCopy(a[0]));
      },
    },
  },
};
