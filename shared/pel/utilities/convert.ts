/** `@convert`: conversions between numbers, texts, booleans, JSON, base64 and hex. */
import { utilityError } from '../errors';
import { isMapLike, ownKeys, readOwn } from '../safety';
import { toJsonText, toText, typeOf } from '../values';
import { bytesToHex, fromBase64, toBase64, utf8Bytes } from './base64';
import { parseJsonSafely } from './json';
import { type UtilitySpec, optionalInt, text } from './support';

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

export const convertUtility: UtilitySpec = {
  name: 'convert',
  doc: 'Conversions; null converts to null.',
  functions: {
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
      doc: "A number: @convert.toDecimal('2.5') is 2.5.",
      fn: (...a) => toNumber('toDecimal', a[0]),
    },
    toNumber: {
      signature: 'toNumber(value)',
      doc: 'Same as toDecimal.',
      fn: (...a) => toNumber('toNumber', a[0]),
    },
    toString: {
      signature: 'toString(value)',
      doc: 'The value as text (lists and maps as JSON).',
      fn: (...a: unknown[]) => (a[0] === null || a[0] === undefined ? null : toText(a[0])),
    },
    toBoolean: {
      signature: 'toBoolean(value)',
      doc: "true/false, 'yes'/'no', 'on'/'off', '1'/'0', numbers (0 is false).",
      fn: (...a) => {
        const v = a[0];
        if (v === null || v === undefined) return null;
        if (typeof v === 'boolean') return v;
        if (typeof v === 'number') return v !== 0;
        if (typeof v === 'string') {
          const w = v.trim().toLowerCase();
          if (TRUE_WORDS.has(w)) return true;
          if (FALSE_WORDS.has(w)) return false;
        }
        throw utilityError(
          `toBoolean: cannot convert ${typeof v === 'string' ? `'${v}'` : `a ${typeOf(v)}`}`,
        );
      },
    },
    toJson: {
      signature: 'toJson(value, indent?)',
      doc: 'JSON text.',
      fn: (...a) => toJsonText(a[0], optionalInt('toJson', a, 1, 0) || undefined),
    },
    fromJson: {
      signature: 'fromJson(text)',
      doc: 'The value of JSON text.',
      fn: (...a) => parseJsonSafely('fromJson', text('fromJson', a, 0)),
    },
    toBase64: {
      signature: 'toBase64(text)',
      doc: 'Base64 of the UTF-8 bytes.',
      fn: (...a) => toBase64(text('toBase64', a, 0)),
    },
    fromBase64: {
      signature: 'fromBase64(text)',
      doc: 'The UTF-8 text of base64 (also URL-safe base64).',
      fn: (...a) => fromBase64(text('fromBase64', a, 0)),
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
