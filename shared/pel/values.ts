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
export function deepEquals(a: unknown, b: unknown, depth = 0): boolean {
  if (a === b) return true;
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (depth > MAX_COMPARE_DEPTH) throw pelError('DATA_TOO_DEEP', null, MAX_COMPARE_DEPTH);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEquals(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = ownKeys(a);
  if (ka.length !== ownKeys(b).length) return false;
  for (const k of ka) {
    if (!hasOwnKey(b, k)) return false;
    if (!deepEquals(readOwn(a, k), readOwn(b, k), depth + 1)) return false;
  }
  return true;
}

/**
 * A text that is the same for two values exactly when `deepEquals` holds (map keys sorted), so that
 * distinct, intersect and containsAll use a Set instead of comparing every pair.
 */
export function equalityKey(v: unknown, depth = 0): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
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
  if (depth > MAX_COMPARE_DEPTH) throw pelError('DATA_TOO_DEEP', null, MAX_COMPARE_DEPTH);
  if (Array.isArray(v)) return `[${v.map((x) => equalityKey(x, depth + 1)).join(',')}]`;
  const keys = ownKeys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${equalityKey(readOwn(v, k), depth + 1)}`).join(',')}}`;
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

/** The text of a value for `+` concatenation and toString(): Java's for scalars, JSON for lists and maps. */
export function toText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(v);
    default:
      return toJsonText(v);
  }
}

/** The text of a value inside a template: like toText, but null prints as nothing (as in SpEL templates). */
export function templateText(v: unknown): string {
  return v === null || v === undefined ? '' : toText(v);
}

/** JSON of a value, seeing only what PEL sees (own data, no functions); cycles are an error. */
export function toJsonText(v: unknown, indent?: number): string {
  return JSON.stringify(toPlainData(v, 0), null, indent) ?? 'null';
}

/** A JSON-safe copy of a value (own data only). */
export function toPlainData(v: unknown, depth: number): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'object') return typeof v === 'function' || typeof v === 'symbol' ? null : v;
  if (depth > MAX_COMPARE_DEPTH) throw pelError('DATA_TOO_DEEP', null, MAX_COMPARE_DEPTH);
  if (Array.isArray(v)) return v.map((x) => toPlainData(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const k of ownKeys(v)) {
    const x = readOwn(v, k);
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: toPlainData(x, depth + 1), enumerable: true });
    else out[k] = toPlainData(x, depth + 1);
  }
  return out;
}

/** True for integral numbers (the Java int/long family); used by division, power and indexers. */
export function isInteger(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v);
}

export { isMapLike };
