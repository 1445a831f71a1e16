/** What PEL values are at runtime (null, boolean, number, string, list, map) and how they compare and print. */
import { type Site, pelError } from './errors';
import { hasOwnKey, isMapLike, ownKeys, readOwn } from './safety';

export type PelType = 'null' | 'boolean' | 'number' | 'string' | 'list' | 'map';

/** The PEL type of a JavaScript value; every object that is not an array is a map. */
export function typeOf(v: unknown): PelType {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'bigint':
      return 'number';
    case 'string':
      return 'string';
    default:
      return Array.isArray(v) ? 'list' : 'map';
  }
}

/** A condition's value: booleans as they are, null as false, 'true'/'false' converted as Spring does. */
export function toBoolean(v: unknown, site: Site): boolean {
  if (v === true || v === false) return v;
  if (v === null || v === undefined) return false;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw pelError('NOT_BOOLEAN', site, typeOf(v));
}

const MAX_COMPARE_DEPTH = 200;

/** `==`: by value, deep for lists and maps; numbers by numeric value; different types are never equal. */
export function deepEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return (a ?? null) === (b ?? null);
  return objectsEqual(a, b, 0, new Map());
}

/**
 * Compares two lists or maps. Pairs already compared are remembered: a list of 100,000 references to one
 * large list is small in memory, and comparing it with another must not walk that list 100,000 times.
 */
function objectsEqual(
  a: object,
  b: object,
  depth: number,
  known: Map<object, Map<object, boolean>>,
): boolean {
  if (depth > MAX_COMPARE_DEPTH) throw pelError('DATA_TOO_DEEP', null, MAX_COMPARE_DEPTH);
  const seen = known.get(a)?.get(b);
  if (seen !== undefined) return seen;
  const equal = (x: unknown, y: unknown): boolean => {
    if (x === y) return true;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null)
      return (x ?? null) === (y ?? null);
    return objectsEqual(x, y, depth + 1, known);
  };
  let result: boolean;
  if (Array.isArray(a)) {
    result = Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  } else if (Array.isArray(b)) {
    result = false;
  } else {
    const ka = ownKeys(a);
    result =
      ka.length === ownKeys(b).length &&
      ka.every((k) => hasOwnKey(b, k) && equal(readOwn(a, k), readOwn(b, k)));
  }
  let row = known.get(a);
  if (!row) known.set(a, (row = new Map()));
  row.set(b, result);
  return result;
}

/**
 * Gives each value a key that is the same for two values exactly when `deepEquals` holds (map keys
 * sorted), so that distinct, intersect and containsAll use a Set instead of comparing every pair. Keys are
 * short names: a string is named by a table of strings, a list or map by a table of the texts made of its
 * items' names, and each list or map is named once however often it is referenced, so a key stays small
 * and cheap whatever the size of the value.
 */
export function equalityKeyer(): (v: unknown) => string {
  const strings = new Map<string, number>();
  const shapes = new Map<string, number>();
  const objects = new Map<object, string>();
  const nameOf = (table: Map<string, number>, text: string): number => {
    let id = table.get(text);
    if (id === undefined) table.set(text, (id = table.size));
    return id;
  };
  const key = (v: unknown, depth: number): string => {
    if (v === null || v === undefined) return 'null';
    switch (typeof v) {
      case 'string':
        return `$${nameOf(strings, v)}`;
      case 'number':
        return String(v);
      case 'bigint':
        return `${String(v)}n`;
      case 'boolean':
        return v ? 'true' : 'false';
      case 'object':
        break;
      default:
        return 'null';
    }
    const known = objects.get(v);
    if (known !== undefined) return known;
    if (depth > MAX_COMPARE_DEPTH) throw pelError('DATA_TOO_DEEP', null, MAX_COMPARE_DEPTH);
    let shape: string;
    if (Array.isArray(v)) shape = `[${v.map((x) => key(x, depth + 1)).join(',')}]`;
    else {
      const keys = ownKeys(v).sort();
      shape = `{${keys.map((k) => `${key(k, depth + 1)}:${key(readOwn(v, k), depth + 1)}`).join(',')}}`;
    }
    const name = `&${nameOf(shapes, shape)}`;
    objects.set(v, name);
    return name;
  };
  return (v) => key(v, 0);
}

/**
 * Ordering as SpEL's standard comparator: numbers, strings (by UTF-16 code unit), booleans (false first);
 * null sorts before everything. Other combinations are a type error.
 */
export function compareValues(a: unknown, b: unknown, site: Site): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  throw pelError('TYPE_MISMATCH', site, `cannot compare a ${typeOf(a)} with a ${typeOf(b)}`);
}

/** How long a text printing a value (JSON of a list or map) may get when the caller sets no limit. */
export const MAX_PRINT_LENGTH = 10_000_000;

/**
 * The text of a value for `+` concatenation and toString(): Java's for scalars, JSON for lists and maps
 * (refused past `maxLength` characters before it is built, see toJsonText).
 */
export function toText(v: unknown, maxLength = MAX_PRINT_LENGTH): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(v);
    default:
      return toJsonText(v, undefined, maxLength);
  }
}

/** The text of a value inside a template: like toText, but null prints as nothing (as in SpEL templates). */
export function templateText(v: unknown, maxLength = MAX_PRINT_LENGTH): string {
  return v === null || v === undefined ? '' : toText(v, maxLength);
}

/**
 * JSON of a value, seeing only what PEL sees (own data, no functions); cycles are an error, and so is a
 * text longer than `maxLength`, found out while copying, before it is built: a list of 100,000 references
 * to one long string is small in memory and enormous as text.
 */
export function toJsonText(v: unknown, indent?: number, maxLength = MAX_PRINT_LENGTH): string {
  const budget = { max: maxLength, left: maxLength, indent: indent ?? 0 };
  return JSON.stringify(toPlainData(v, 0, budget), null, indent) ?? 'null';
}

/** What is left of a printing budget (characters), and the indentation that each line adds. */
interface PrintBudget {
  readonly max: number;
  left: number;
  indent: number;
}

function spend(budget: PrintBudget | undefined, chars: number, depth: number): void {
  if (!budget) return;
  budget.left -= chars + (budget.indent > 0 ? budget.indent * depth + 1 : 0);
  if (budget.left < 0) throw pelError('STRING_TOO_LONG', null, `more than ${budget.max}`, budget.max);
}

/** A JSON-safe copy of a value (own data only); with a budget, it also counts the JSON text's length. */
export function toPlainData(v: unknown, depth: number, budget?: PrintBudget): unknown {
  if (v === null || v === undefined) {
    spend(budget, 5, depth);
    return null;
  }
  if (typeof v === 'string') {
    spend(budget, v.length + 3, depth);
    return v;
  }
  if (typeof v === 'number') {
    if (budget) spend(budget, String(v).length, depth);
    return Number.isFinite(v) ? v : null;
  }
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'object') {
    spend(budget, 6, depth);
    return typeof v === 'function' || typeof v === 'symbol' ? null : v;
  }
  if (depth > MAX_COMPARE_DEPTH) throw pelError('DATA_TOO_DEEP', null, MAX_COMPARE_DEPTH);
  spend(budget, 2, depth);
  if (Array.isArray(v)) return v.map((x) => toPlainData(x, depth + 1, budget));
  const out: Record<string, unknown> = {};
  for (const k of ownKeys(v)) {
    spend(budget, k.length + 4, depth + 1);
    const x = readOwn(v, k);
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: toPlainData(x, depth + 1, budget), enumerable: true });
    else out[k] = toPlainData(x, depth + 1, budget);
  }
  return out;
}

/** True for integral numbers (the Java int/long family); used by division, power and indexers. */
export function isInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

export { isMapLike };
