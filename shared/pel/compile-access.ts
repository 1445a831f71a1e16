/** Reading values: roots, #variables, properties and indexers, with SpEL's null rules and own-data-only access. */
import { type Site, pelError } from './errors';
import type { Runtime } from './runtime';
import { clean, readOwn } from './safety';
import { isRootName } from './types';
import { typeOf } from './values';

/** `#root`: the scopes as one map. */
export function rootObject(rt: Runtime): Record<string, unknown> {
  const s = rt.scope;
  return {
    body: clean(s.body),
    vars: clean(s.vars),
    headers: clean(s.headers),
    request: clean(s.request),
    exception: clean(s.exception),
  };
}

/** One root of the scope (body, vars, headers, request, exception); absent ones are null. */
export function readRoot(rt: Runtime, name: string): unknown {
  const s = rt.scope as unknown as Record<string, unknown>;
  switch (name) {
    case 'body':
      return clean(s.body);
    case 'vars':
      return clean(s.vars);
    case 'headers':
      return clean(s.headers);
    case 'request':
      return clean(s.request);
    default:
      return clean(s.exception);
  }
}

/** `value.name`: own data of a map, null for a missing key; null receivers fail unless the step is `?.`. */
export function readProperty(v: unknown, name: string, safe: boolean, site: Site): unknown {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return readOwn(v, name);
  if (v === null || v === undefined) {
    if (safe) return null;
    throw pelError('NULL_RECEIVER', site, name);
  }
  throw pelError('NO_PROPERTY', site, name, typeOf(v));
}

/** `value[index]`: list and string positions (bounds-checked as Java), map keys (strings or numbers). */
export function readIndex(v: unknown, index: unknown, safe: boolean, site: Site): unknown {
  if (Array.isArray(v)) {
    if (typeof index !== 'number' || !Number.isInteger(index)) {
      throw pelError('TYPE_MISMATCH', site, `a list index must be an integer, got a ${typeOf(index)}`);
    }
    if (index < 0 || index >= v.length) throw pelError('INDEX_OUT_OF_BOUNDS', site, index, v.length);
    return clean(v[index]);
  }
  if (typeof v === 'object' && v !== null) {
    if (typeof index === 'string') return readOwn(v, index);
    if (typeof index === 'number' || typeof index === 'boolean') return readOwn(v, String(index));
    throw pelError('TYPE_MISMATCH', site, `a map key must be a string, got a ${typeOf(index)}`);
  }
  if (typeof v === 'string') {
    if (typeof index !== 'number' || !Number.isInteger(index)) {
      throw pelError('TYPE_MISMATCH', site, `a string index must be an integer, got a ${typeOf(index)}`);
    }
    if (index < 0 || index >= v.length) throw pelError('INDEX_OUT_OF_BOUNDS', site, index, v.length);
    return v[index];
  }
  if (v === null || v === undefined) {
    if (safe) return null;
    throw pelError('NULL_RECEIVER', site, `[${typeof index === 'string' ? `'${index}'` : String(index)}]`);
  }
  throw pelError('TYPE_MISMATCH', site, `a ${typeOf(v)} cannot be indexed`);
}

/**
 * A bare name inside selection or projection: the current item's key when it has it, else a root, else
 * null for map items (a missing key) and an error for other items.
 */
export function readLambdaName(rt: Runtime, name: string, site: Site): unknown {
  const t = rt.thisValue;
  if (typeof t === 'object' && t !== null && !Array.isArray(t)) {
    const proto: unknown = Object.getPrototypeOf(t);
    if ((proto === Object.prototype || proto === null) && Object.hasOwn(t, name)) {
      return clean((t as Record<string, unknown>)[name]);
    }
    if (isRootName(name)) return readRoot(rt, name);
    return readOwn(t, name);
  }
  if (isRootName(name)) return readRoot(rt, name);
  if (t === null || t === undefined) throw pelError('NULL_RECEIVER', site, name);
  throw pelError('NO_PROPERTY', site, name, typeOf(t));
}
