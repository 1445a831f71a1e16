/** `@convert`: conversions between numbers, texts, booleans, JSON, base64 and hex. */
import { utilityError } from '../errors';
import { isMapLike, ownKeys, readOwn } from '../safety';
import { toText, typeOf } from '../values';
import { BinaryContent, isBinaryContent } from '../../values';
import { base64ToBytes, bytesToBase64, bytesToHex, fromBase64, utf8Bytes } from './base64';
import { toContent } from './content';
import { formatDecimal, parseDecimal } from './convert-decimal';
import { loadJson } from './json';
import { type PelUriResolver, resolveUri } from './resolve';
import { type UtilitySpec, num, text, textOrNull } from './support';
import { xmlTextOf, xmlToData } from './xml-support';

function toNumber(fn: string, v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const t = v.trim();
    const n = /^[+-]?0x[0-9a-f]+$/i.test(t) ? parseInt(t, 16) : Number(t);
    if (t !== '' && Number.isFinite(n)) return n;
  }
  throw utilityError(
    `${fn}: cannot convert ${typeof v === 'string' ? `'${v}'` : `a ${typeOf(v)}`} to a number`,
  );
}

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 'y']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', 'n', '']);

/** JSON or XML text (or bytes) as data; data as it is. */
function toData(fn: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  const textOf = isBinaryContent(v) ? new TextDecoder().decode(v.data) : v;
  if (typeof textOf === 'string' && textOf.trimStart().startsWith('<')) return xmlToData(fn, textOf);
  return loadJson(fn, textOf);
}

/** The decimal of `toDecimal(value)`, `(value, decimalSymbol)` or `(value, pattern, decimalSymbol)`. */
function toDecimal(a: unknown[]): number | null {
  const v = a[0];
  if (a.length < 2 || typeof v !== 'string') return toNumber('toDecimal', v);
  return parseDecimal('toDecimal', v, text('toDecimal', a, a.length >= 3 ? 2 : 1));
}

/** `@convert` over a resolver (the server's, or none: then `lazy` refuses `uri:` references). */
export function convertSpec(resolver: PelUriResolver | null): UtilitySpec {
  return { ...convertFunctions, functions: { ...convertFunctions.functions, lazy: lazyOf(resolver) } };
}

function lazyOf(resolver: PelUriResolver | null): UtilitySpec['functions'][string] {
  return {
    signature: 'lazy(uri)',
    doc: "The value a uri: reference points to, read now: @convert.lazy('uri:property:global/app/x#recipient'); any other value is returned as it is.",
    fn: (...a) => {
      const v = a[0];
      const isUri = typeof v === 'string' && /^\$?uri:/.test(v);
      return isUri ? resolveUri('lazy', v, resolver) : (v ?? null);
    },
  };
}

const convertFunctions: UtilitySpec = {
  name: 'convert',
  doc: 'Conversions; null converts to null.',
  functions: {
    toLong: {
      signature: 'toLong(value)',
      doc: "A whole number (decimals are truncated): @convert.toLong('42') is 42.",
      fn: (...a) => {
        const n = toNumber('toLong', a[0]);
        return n === null ? null : Math.trunc(n) || 0;
      },
    },
    toInteger: {
      signature: 'toInteger(value)',
      doc: "A whole number (decimals are truncated): @convert.toInteger('42') is 42.",
      fn: (...a) => {
        const n = toNumber('toInteger', a[0]);
        return n === null ? null : Math.trunc(n) || 0;
      },
    },
    toDecimal: {
      signature: 'toDecimal(value)',
      overloads: ['toDecimal(value, decimalSymbol)', 'toDecimal(value, pattern, decimalSymbol)'],
      doc: "A number, from text written with a decimal symbol (grouping symbols left out): @convert.toDecimal('1.234,5', ',') is 1234.5.",
      fn: (...a) => toDecimal(a),
    },
    toDecimalString: {
      signature: 'toDecimalString(value, pattern, decimalSymbol)',
      overloads: ['toDecimalString(value, decimalSymbol)'],
      doc: "A number as text by a DecimalFormat pattern (0, #, ',' and '.'; half-even) with a decimal symbol: @convert.toDecimalString(1234.5, '#,##0.00', ',') is '1.234,50'.",
      fn: (...a) => {
        if (a[0] === null || a[0] === undefined) return null;
        const n = typeof a[0] === 'number' ? a[0] : num('toDecimalString', a, 0);
        return a.length >= 3
          ? formatDecimal(
              'toDecimalString',
              n,
              textOrNull('toDecimalString', a, 1),
              text('toDecimalString', a, 2),
            )
          : formatDecimal('toDecimalString', n, null, text('toDecimalString', a, 1));
      },
    },
    toNumber: {
      signature: 'toNumber(value)',
      doc: 'Same as toDecimal.',
      fn: (...a) => toNumber('toNumber', a[0]),
    },
    toString: {
      signature: 'toString(value)',
      doc: 'The value as text (lists and maps as JSON; a content object its bytes as UTF-8).',
      fn: (...a: unknown[]) =>
        a[0] === null || a[0] === undefined
          ? null
          : isBinaryContent(a[0])
            ? new TextDecoder().decode(a[0].data)
            : toText(a[0]),
    },
    toBoolean: {
      signature: 'toBoolean(value)',
      doc: "true/false, 'yes'/'no', 'on'/'off', numbers and number texts (0 is false).",
      fn: (...a) => {
        const v = a[0];
        if (v === null || v === undefined) return null;
        if (typeof v === 'boolean') return v;
        if (typeof v === 'number') return v !== 0;
        if (typeof v === 'string') {
          const w = v.trim().toLowerCase();
          if (TRUE_WORDS.has(w)) return true;
          if (FALSE_WORDS.has(w)) return false;
          if (Number.isFinite(Number(w))) return Number(w) !== 0;
        }
        throw utilityError(
          `toBoolean: cannot convert ${typeof v === 'string' ? `'${v}'` : `a ${typeOf(v)}`}`,
        );
      },
    },
    toJson: {
      signature: 'toJson(object)',
      doc: 'JSON data: JSON text (or bytes) parsed, data as it is: @convert.toJson(\'{"a": 1}\').a is 1. For JSON text use @json.stringify.',
      fn: (...a) => loadJson('toJson', a[0]),
    },
    toMap: {
      signature: 'toMap(object)',
      doc: 'A map: a map as it is, JSON or XML text (or bytes) parsed; null stays null.',
      fn: (...a) => {
        const v = toData('toMap', a[0]);
        if (v !== null && (typeof v !== 'object' || Array.isArray(v)))
          throw utilityError(`toMap: the value is a ${typeOf(v)}, not a map`);
        return v;
      },
    },
    toMapOrList: {
      signature: 'toMapOrList(o)',
      doc: 'A map or a list: as it is, or JSON or XML text (or bytes) parsed.',
      fn: (...a) => {
        const v = toData('toMapOrList', a[0]);
        if (v !== null && typeof v !== 'object')
          throw utilityError(`toMapOrList: the value is a ${typeOf(v)}, not a map or list`);
        return v;
      },
    },
    toXMLString: {
      signature: 'toXMLString(object)',
      doc: "XML text: XML text or bytes as they are, a map built to XML (keys '@x' are attributes, '#text' text).",
      fn: (...a) => (a[0] === null || a[0] === undefined ? null : xmlTextOf('toXMLString', a[0])),
    },
    toDOM: {
      signature: 'toDOM(object)',
      doc: "An XML document as data (keys '@x' for attributes, '#text' for text), checked well-formed; @xml.xpath reads it.",
      fn: (...a) => (a[0] === null || a[0] === undefined ? null : xmlToData('toDOM', a[0])),
    },
    toByteArray: {
      signature: 'toByteArray(object)',
      doc: 'Bytes (content): text as UTF-8, data as JSON, content as it is.',
      fn: (...a) =>
        a[0] === null || a[0] === undefined ? null : toContent('toByteArray', a[0], null, null, null),
    },
    toBase64: {
      signature: 'toBase64(value)',
      doc: 'Base64 of the bytes of content, or of the UTF-8 bytes of a text (data as JSON).',
      fn: (...a) => {
        const v = a[0];
        if (v === null || v === undefined) return null;
        if (isBinaryContent(v)) return bytesToBase64(v.data);
        return bytesToBase64(utf8Bytes(typeof v === 'string' ? v : toText(v)));
      },
    },
    fromBase64: {
      signature: 'fromBase64(base64String)',
      doc: 'The UTF-8 text of base64 (also URL-safe base64).',
      fn: (...a) => (a[0] === null || a[0] === undefined ? null : fromBase64(text('fromBase64', a, 0))),
    },
    fromBase64ToBytes: {
      signature: 'fromBase64ToBytes(base64String)',
      doc: 'The bytes of base64, as content (application/octet-stream).',
      fn: (...a) =>
        a[0] === null || a[0] === undefined
          ? null
          : new BinaryContent(base64ToBytes(text('fromBase64ToBytes', a, 0))),
    },
    toHex: {
      signature: 'toHex(text)',
      doc: 'Hex of the UTF-8 bytes.',
      fn: (...a) => bytesToHex(utf8Bytes(text('toHex', a, 0))),
    },
    fromHex: {
      signature: 'fromHex(hex)',
      doc: 'The UTF-8 text of hex.',
      fn: (...a) => {
        const h = text('fromHex', a, 0);
        if (!/^([0-9a-fA-F]{2})*$/.test(h)) throw utilityError('fromHex: not valid hex');
        const bytes = new Uint8Array(h.length / 2);
        for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
        return new TextDecoder().decode(bytes);
      },
    },
    toList: {
      signature: 'toList(value)',
      doc: 'A list: lists as they are, null as empty, a map as its values, anything else as a one-item list.',
      fn: (...a) => {
        const v = a[0];
        if (Array.isArray(v)) return v;
        if (v === null || v === undefined) return [];
        if (isMapLike(v)) return ownKeys(v).map((k) => readOwn(v, k));
        return [v];
      },
    },
  },
};

export const convertUtility = convertSpec(null);
