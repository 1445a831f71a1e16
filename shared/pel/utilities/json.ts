/** `@json`: parse and print JSON, read by JSON Pointer. */
import { utilityError } from '../errors';
import { toJsonText, typeOf } from '../values';
import { isBinaryContent } from '../../values';
import { readPath } from './data';
import { queryJsonPath } from './json-path';
import { type UtilitySpec, noteBuilt, optionalInt, sizeOf, text } from './support';

/** JSON.parse, with its SyntaxError turned into a utility error; `__proto__` keys stay own data. */
export function parseJsonSafely(fn: string, s: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(s) as unknown;
  } catch (e) {
    throw utilityError(`${fn}: invalid JSON (${(e as Error).message})`);
  }
  if (typeof value === 'object' && value !== null) noteBuilt(sizeOf(value));
  return value;
}

/** JSON from a text or bytes (parsed), or data as it is; null stays null. */
export function loadJson(fn: string, source: unknown): unknown {
  if (source === null || source === undefined) return null;
  if (typeof source === 'string') return parseJsonSafely(fn, source);
  if (isBinaryContent(source)) return parseJsonSafely(fn, new TextDecoder().decode(source.data));
  // A file's raw bytes (`body.data` after drive.read, as the tutorials write it) are UTF-8 JSON text too.
  if (source instanceof Uint8Array) return parseJsonSafely(fn, new TextDecoder().decode(source));
  if (typeof source === 'object') return source;
  throw utilityError(`${fn}: cannot read JSON from a ${typeOf(source)}`);
}

function pointerSteps(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw utilityError(`get: a JSON Pointer starts with '/', got '${pointer}'`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export const jsonUtility: UtilitySpec = {
  name: 'json',
  doc: 'JSON text.',
  functions: {
    load: {
      signature: 'load(source)',
      doc: 'JSON from a text or bytes (parsed); maps and lists as they are; null stays null.',
      fn: (...a) => loadJson('load', a[0]),
    },
    path: {
      signature: 'path(json, query)',
      doc: "The values a JSONPath query (RFC 9535) selects, as a list; the JSON may be text: @json.path(body, '$.items[?@.price > 10].name'). Filters only compare: nothing is executed; match() and search() take Java-style patterns on the linear regex engine; each call has a step budget.",
      fn: (...a) => queryJsonPath('path', loadJson('path', a[0]), text('path', a, 1)),
    },
    object: { signature: 'object()', doc: 'A new empty map.', fn: () => ({}) },
    array: { signature: 'array()', doc: 'A new empty list.', fn: () => [] },
    parse: {
      signature: 'parse(text)',
      doc: 'The value of JSON text.',
      fn: (...a) => parseJsonSafely('parse', text('parse', a, 0)),
    },
    stringify: {
      signature: 'stringify(json)',
      overloads: ['stringify(json, indent)'],
      doc: 'Compact JSON text (or indented by indent spaces).',
      fn: (...a) => toJsonText(a[0], optionalInt('stringify', a, 1, 0) || undefined),
    },
    pretty: {
      signature: 'pretty(value)',
      doc: 'JSON indented by 2 spaces.',
      fn: (...a) => toJsonText(a[0], 2),
    },
    isValid: {
      signature: 'isValid(text)',
      doc: 'True when the text is valid JSON.',
      fn: (...a) => {
        if (typeof a[0] !== 'string') return false;
        try {
          JSON.parse(a[0]);
          return true;
        } catch {
          return false;
        }
      },
    },
    get: {
      signature: 'get(value, pointer)',
      doc: "The value at a JSON Pointer (RFC 6901), or null: @json.get(body, '/items/0/name').",
      fn: (...a) =>
        readPath(
          a[0],
          pointerSteps(text('get', a, 1)).map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s)),
        ),
    },
  },
};
