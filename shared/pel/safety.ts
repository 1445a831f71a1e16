/**
 * The one place where PEL touches JavaScript objects: reads see only own data, writes refuse keys and
 * objects that could reach a prototype, and no function or intrinsic object ever becomes a PEL value.
 */

import { isBinaryContent } from '../values';

/** Keys that are never written (and never resolved as names of the language). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Objects no expression may hold: the prototypes and globals a write could poison. */
const INTRINSICS: ReadonlySet<unknown> = new Set<unknown>([
  globalThis,
  Object.prototype,
  Array.prototype,
  Function.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
  Map.prototype,
  Set.prototype,
  Promise.prototype,
  RegExp.prototype,
  Date.prototype,
  Error.prototype,
  Symbol.prototype,
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  Object.getPrototypeOf(function* () {}) as object,
  Object.getPrototypeOf(async function () {}) as object,
  JSON,
  Math,
  Reflect,
]);

/**
 * What a value handed over by the host (a root, a utility's result) becomes in PEL: functions, symbols and
 * intrinsic objects are invisible, undefined is null.
 */
export function clean(v: unknown): unknown {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return null;
  if (typeof v === 'object' && v !== null && INTRINSICS.has(v)) return null;
  return v;
}

/**
 * What a value read from inside data becomes: functions and symbols are invisible, undefined is null.
 * (Intrinsics cannot be written through anyway: `unwritableReason` refuses them.)
 */
export function cleanData(v: unknown): unknown {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v;
}

const OBJECT_PROTOTYPE_KEYS: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  ...FORBIDDEN_KEYS,
]);

/**
 * True when reading `o[key]` on a plain object (prototype Object.prototype or null) can only find an own
 * property: the key is not a member of Object.prototype. The compiler uses it for a fast path.
 */
export function isPlainSafeKey(key: string): boolean {
  return !OBJECT_PROTOTYPE_KEYS.has(key);
}

/** True for objects PEL treats as maps: anything non-null, non-array of type object. */
export function isMapLike(v: unknown): v is object {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads an own data property (or a Map entry); anything inherited, an accessor or a function reads as null. */
export function readOwn(target: object, key: string): unknown {
  if (isBinaryContent(target)) {
    // The reference's content object names its length and type so (guides/80_content.md).
    if (key === 'contentLength' || key === 'size') return target.size;
    if (key === 'contentType') return target.mimeType;
    // The bytes (read into memory only when asked, and only when they fit the in-memory limit).
    if (key === 'data' || key === 'content') return target.data;
    if (key === 'name') return target.name ?? null;
  }
  const proto: unknown = Object.getPrototypeOf(target);
  if (proto === Object.prototype || proto === null) {
    return Object.hasOwn(target, key) ? cleanData((target as Record<string, unknown>)[key]) : null;
  }
  if (target instanceof Map) return cleanData(target.get(key));
  const d = Object.getOwnPropertyDescriptor(target, key);
  return d !== undefined && 'value' in d ? cleanData(d.value) : null;
}

/** True when the map has the key as an own data property (or Map entry). */
export function hasOwnKey(target: object, key: string): boolean {
  if (target instanceof Map) return target.has(key);
  const d = Object.getOwnPropertyDescriptor(target, key);
  return d !== undefined && 'value' in d;
}

/** The own enumerable keys of a map (or a Map's string keys). */
export function ownKeys(target: object): string[] {
  if (target instanceof Map) return [...target.keys()].filter((k): k is string => typeof k === 'string');
  return Object.keys(target).filter((k) => hasOwnKey(target, k));
}

/** Returns a reason when the object must not be written, else null. */
export function unwritableReason(target: unknown, key: string): string | null {
  if (FORBIDDEN_KEYS.has(key)) return 'forbidden-key';
  if (typeof target !== 'object' || target === null || INTRINSICS.has(target)) return 'not-writable';
  if (Array.isArray(target) || target instanceof Map) return null;
  const proto: unknown = Object.getPrototypeOf(target);
  if (proto !== Object.prototype && proto !== null) return 'not-writable';
  if (Object.isFrozen(target)) return 'not-writable';
  return null;
}

/** Writes an own data property on a plain map or an entry of a Map; the caller checked `unwritableReason`. */
export function writeOwn(target: object, key: string, value: unknown): void {
  if (target instanceof Map) target.set(key, value);
  else Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Sets a key on a map PEL has just created; `__proto__` from data stays an own data key. */
export function setEntry(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else target[key] = value;
}
