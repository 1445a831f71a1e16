/** `@json`: parse and print JSON, read by JSON Pointer. */
import { utilityError } from '../errors';
import { toJsonText } from '../values';
import { readPath } from './data';
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
    parse: {
      signature: 'parse(text)',
      doc: 'The value of JSON text.',
      fn: (...a) => parseJsonSafely('parse', text('parse', a, 0)),
    },
    stringify: {
      signature: 'stringify(value, indent?)',
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
