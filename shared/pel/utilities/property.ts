/** `@property`: values from the property store, through an interface the server fills in (synchronously). */
import { utilityError } from '../errors';
import type { PelUtility } from '../types';
import { pathSteps, readPath } from './data';
import { type UtilitySpec, text, toUtility } from './support';

/** What the server lets PEL read from the property store (it applies the caller's permissions). */
export interface PelPropertyReader {
  /** The value of the property (JSON values parsed), or undefined when there is no such key. */
  value(key: string): unknown;
}

function split(fn: string, reference: string): { key: string; field: string } {
  const hash = reference.indexOf('#');
  if (hash === 0) throw utilityError(`${fn}: the reference '${reference}' has no key`);
  return hash < 0
    ? { key: reference, field: '' }
    : { key: reference.slice(0, hash), field: reference.slice(hash + 1) };
}

/** The `@property` functions over a reader, for `options.utilities.property`. */
export function createPropertyUtility(reader: PelPropertyReader): PelUtility {
  const read = (fn: string, reference: string, required: boolean): unknown => {
    const { key, field } = split(fn, reference);
    const v = reader.value(key);
    if (v === undefined) {
      if (required) throw utilityError(`${fn}: no property '${key}'`);
      return null;
    }
    return field === '' ? v : readPath(v, pathSteps(fn, field));
  };
  return toUtility({
    name: 'property',
    doc: '',
    functions: {
      value: { signature: '', doc: '', fn: (...a) => read('value', text('value', a, 0), true) },
      lazy: { signature: '', doc: '', fn: (...a) => read('lazy', text('lazy', a, 0), false) },
      exists: {
        signature: '',
        doc: '',
        fn: (...a) => reader.value(split('exists', text('exists', a, 0)).key) !== undefined,
      },
    },
  });
}

/** Signatures and docs of `@property`, for completion and docs/pel.md. */
export const propertyUtilityDocs: UtilitySpec = {
  name: 'property',
  doc: 'Values of the property store (filled in by the server, with the caller’s permissions).',
  serverProvided: true,
  functions: {
    value: {
      signature: 'value(key)',
      doc: "The property's value (JSON parsed); 'key#a.b' reads a field. Fails when the key does not exist.",
      fn: () => null,
    },
    lazy: {
      signature: 'lazy(keyAndField)',
      doc: "Like value('key#field'), but null when the key does not exist.",
      fn: () => null,
    },
    exists: { signature: 'exists(key)', doc: 'True when the property exists.', fn: () => null },
  },
};
