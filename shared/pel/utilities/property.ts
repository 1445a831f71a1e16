/** `@property`: the property store, through an interface the server fills in (synchronously, with permissions). */
import { utilityError } from '../errors';
import type { PelUtility } from '../types';
import { pathSteps, readPath } from './data';
import { type UtilitySpec, text, toUtility } from './support';

/**
 * What the server lets PEL do with the property store, as the caller: a key the caller may not read answers
 * like a missing one (undefined), never its value. The optional parts fail clearly when absent.
 */
export interface PelPropertyReader {
  /** The value of the property (JSON values parsed), or undefined when there is no such key (or it is not readable). */
  value(key: string): unknown;
  /** The whole property (key, value, type, ...), or undefined. */
  get?(key: string): unknown;
  /** The values of the readable properties whose keys match a pattern (`*`, `**`), in key order. */
  values?(pattern: string): unknown[];
  /** Sets the value of an existing property as `property.put` does, when the caller may; returns the value stored. */
  updateValue?(key: string, value: unknown): unknown;
}

function split(fn: string, reference: string): { key: string; field: string } {
  const hash = reference.indexOf('#');
  if (hash === 0) throw utilityError(`${fn}: the reference '${reference}' has no key`);
  return hash < 0
    ? { key: reference, field: '' }
    : { key: reference.slice(0, hash), field: reference.slice(hash + 1) };
}

function unavailable(fn: string): never {
  throw utilityError(`${fn}: not available here (it needs the server's property store)`);
}

/** The `@property` spec over a reader; the docs are the spec over an empty store. */
export function propertySpec(reader: PelPropertyReader): UtilitySpec {
  const read = (fn: string, reference: string, required: boolean): unknown => {
    const { key, field } = split(fn, reference);
    const v = reader.value(key);
    if (v === undefined) {
      if (required) throw utilityError(`${fn}: no property '${key}' (or you may not read it)`);
      return null;
    }
    return field === '' ? v : readPath(v, pathSteps(fn, field));
  };
  return {
    name: 'property',
    doc: 'The property store (filled in by the server, with the caller’s permissions: a key you may not read is missing).',
    serverProvided: true,
    functions: {
      value: {
        signature: 'value(key)',
        doc: "The property's value (JSON parsed); 'key#a.b' reads a field. Fails when the key does not exist or you may not read it.",
        fn: (...a) => read('value', text('value', a, 0), true),
      },
      lazy: {
        signature: 'lazy(key)',
        doc: "Like value('key#field'), but null when the key does not exist (or you may not read it).",
        fn: (...a) => read('lazy', text('lazy', a, 0), false),
      },
      get: {
        signature: 'get(key)',
        doc: 'The whole property (uuid, key, value, type, created, ...), or null.',
        fn: (...a) => {
          const key = text('get', a, 0);
          return reader.get ? (reader.get(key) ?? null) : unavailable('get');
        },
      },
      values: {
        signature: 'values(pattern)',
        doc: "The values of the readable properties whose keys match a pattern: @property.values('global/app/x/config/*').",
        fn: (...a) => {
          const pattern = text('values', a, 0);
          return reader.values ? reader.values(pattern) : unavailable('values');
        },
      },
      updateValue: {
        signature: 'updateValue(key, value)',
        doc: 'Sets the value of an existing property, as property.put does (its permission and checks, the version goes up, property.changed); returns the value as stored.',
        fn: (...a) => {
          const key = text('updateValue', a, 0);
          return reader.updateValue ? reader.updateValue(key, a[1] ?? null) : unavailable('updateValue');
        },
      },
      exists: {
        signature: 'exists(key)',
        doc: 'True when the property exists and you may read it.',
        fn: (...a) => reader.value(split('exists', text('exists', a, 0)).key) !== undefined,
      },
    },
  };
}

/** The `@property` functions over a reader, for `options.utilities.property`. */
export function createPropertyUtility(reader: PelPropertyReader): PelUtility {
  return toUtility(propertySpec(reader));
}

/** Signatures and docs of `@property`, for completion and docs/pel.md. */
export const propertyUtilityDocs: UtilitySpec = propertySpec({ value: () => undefined });
